import { FromAIError } from '../errors/from-ai-error';

/** The parts of an n8n node (`INode`) the description needs. */
export interface ToolDescriptionNode {
	name?: string;
	parameters: Record<string, unknown>;
}

/** The parts of an n8n node type description (`INodeTypeDescription`) the description needs. */
export interface ToolDescriptionNodeType {
	name: string;
	description: string;
	defaults: { name?: string };
	properties: ReadonlyArray<{
		name: string;
		options?: readonly unknown[];
		displayOptions?: { show?: { [parameter: string]: readonly unknown[] | undefined } };
	}>;
}

/** Input of {@link buildToolDescription}. */
export interface BuildToolDescriptionOptions {
	node: ToolDescriptionNode;
	nodeTypeDescription: ToolDescriptionNodeType;
	/** Resolves a manual `toolDescription` written as an expression (the raw value, `=` included). */
	resolveExpression?: (expression: string) => unknown;
}

/**
 * The tool description n8n would give the node (n8n-workflow `getToolDescriptionForNode`,
 * used by n8n-core `createNodeAsTool`): with `descriptionType: 'auto'` or a blank
 * `toolDescription`, "{action} in {node}" / "{operation} {resource} in {node}" / the node
 * type's description; otherwise the manual `toolDescription`. Unlike n8n without an
 * execution context, an `=` expression is resolved, never returned raw.
 *
 * @throws {FromAIError} `FROM_AI_UNRESOLVED_DESCRIPTION` when the manual description is an
 * expression and no `resolveExpression` is given.
 */
export function buildToolDescription(options: BuildToolDescriptionOptions): string {
	const { node, nodeTypeDescription, resolveExpression } = options;
	const parameters = node.parameters;
	const manual = parameters.toolDescription;
	if (
		parameters.descriptionType === 'auto' ||
		manual === undefined ||
		manual === null ||
		String(manual).trim() === ''
	) {
		return makeDescription(parameters, nodeTypeDescription);
	}
	if (typeof manual === 'string' && manual.startsWith('=')) {
		if (!resolveExpression) {
			throw new FromAIError(
				'FROM_AI_UNRESOLVED_DESCRIPTION',
				`The tool description is an expression (${JSON.stringify(manual.length > 60 ? `${manual.slice(0, 57)}...` : manual)}) and nothing can resolve it here. Allowed: a fixed text, or pass resolveExpression.`,
				{ path: 'toolDescription', nodeName: node.name },
			);
		}
		return String(resolveExpression(manual));
	}
	return String(manual);
}

/** n8n-workflow `makeDescription` (with `resolveResourceAndOperation`), replicated. */
function makeDescription(
	parameters: Record<string, unknown>,
	nodeType: ToolDescriptionNodeType,
): string {
	const nodeName = String(nodeType.defaults.name);
	if (nodeType.name === 'n8n-nodes-base.code') {
		const language = nodeType.properties.find((property) => property.name === 'language');
		const found = optionsList(language?.options)?.find(
			(option) => option.value === parameters.language,
		);
		if (found?.action) return `${found.action} in ${nodeName}`;
	}
	const { resource, operation } = parameters;
	const operationProperty = nodeType.properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource),
	);
	const found = optionsList(operationProperty?.options)?.find(
		(option) => option.value === operation,
	);
	if (found?.action) return `${found.action} in ${nodeName}`;
	if (resource && operation) return `${String(operation)} ${String(resource)} in ${nodeName}`;
	return nodeType.description;
}

interface PropertyOption {
	name: unknown;
	value: unknown;
	action?: string;
}

/** n8n's `isINodePropertyOptionsList`: every item has `name` and `value` and no `displayName`. */
function optionsList(options: readonly unknown[] | undefined): PropertyOption[] | undefined {
	if (!Array.isArray(options)) return undefined;
	const isOption = (item: unknown): item is PropertyOption =>
		typeof item === 'object' &&
		item !== null &&
		'value' in item &&
		'name' in item &&
		!('displayName' in item);
	return options.every(isOption) ? (options as PropertyOption[]) : undefined;
}
