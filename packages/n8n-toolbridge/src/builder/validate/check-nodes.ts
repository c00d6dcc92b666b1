import {
	NodeHelpers,
	NodeVersionNotFoundError,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';
import type { NodeCatalog } from '../catalog/node-catalog';
import { suggestNodeIds } from '../discovery/get-nodes';
import type { BuildIssue } from './build-issue';

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/**
 * Checks each node against its real description, what the SDK's own validation leaves out:
 * the type and version exist (`UNKNOWN_NODE_TYPE`, `UNKNOWN_NODE_VERSION`), required
 * parameters are set and resource locator values pass their checks (n8n-workflow's own
 * `getNodeParametersIssues`, as the editor shows them: `PARAMETER_REQUIRED`, `PARAMETER_INVALID`), values of fixed option lists are among them (`OPTION_NOT_ALLOWED`,
 * only for the definitions displayed with the other values), and every parameter exists and
 * applies (`UNKNOWN_PARAMETER`, `PARAMETER_NOT_SHOWN`: warnings), as do credential types.
 */
export function checkNodes(nodes: readonly INode[], catalog: NodeCatalog): BuildIssue[] {
	return nodes.flatMap((node) => checkNode(node, catalog));
}

function checkNode(node: INode, catalog: NodeCatalog): BuildIssue[] {
	const issue = (
		severity: BuildIssue['severity'],
		code: string,
		message: string,
		path?: string,
	): BuildIssue => ({ severity, source: 'nodes', code, node: node.name, path, message });
	let description: INodeTypeDescription | undefined;
	try {
		description = catalog.describe(node.type, Number(node.typeVersion));
	} catch (error) {
		if (!(error instanceof NodeVersionNotFoundError)) throw error;
		return [
			issue(
				'error',
				'UNKNOWN_NODE_VERSION',
				`${node.type} has no version ${node.typeVersion}; versions: ${[...error.availableVersions].sort((a, b) => a - b).join(', ')}.`,
			),
		];
	}
	if (!description) {
		const close = suggestNodeIds(catalog, node.type);
		return [
			issue(
				'error',
				'UNKNOWN_NODE_TYPE',
				`Node type "${node.type}" is not installed or does not exist${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; use search_nodes to find the right id.`,
			),
		];
	}
	if (node.type === STICKY_NOTE) return [];

	const issues: BuildIssue[] = [];
	const given = node.parameters ?? {};
	let full: INodeParameters;
	try {
		full =
			NodeHelpers.getNodeParameters(
				description.properties,
				given,
				true,
				false,
				node,
				description,
			) ?? {};
	} catch (error) {
		return [
			issue(
				'warning',
				'PARAMETERS_UNREADABLE',
				`Its parameters could not be read against the description: ${(error as Error).message}`,
			),
		];
	}
	const parameterIssues = NodeHelpers.getNodeParametersIssues(
		description.properties,
		{ ...node, parameters: full },
		description,
	);
	for (const [name, messages] of Object.entries(parameterIssues?.parameters ?? {}))
		for (const message of messages)
			issues.push(
				issue(
					'error',
					/is required/.test(message) ? 'PARAMETER_REQUIRED' : 'PARAMETER_INVALID',
					message,
					name,
				),
			);

	const known = new Set(description.properties.map((property) => property.name));
	for (const key of Object.keys(given)) {
		if (!known.has(key))
			issues.push(
				issue(
					'warning',
					'UNKNOWN_PARAMETER',
					`"${key}" is not a parameter of ${node.type} v${node.typeVersion}.`,
					key,
				),
			);
		else if (!(key in full))
			issues.push(
				issue(
					'warning',
					'PARAMETER_NOT_SHOWN',
					`"${key}" does not apply with the other values set (its displayOptions hide it).`,
					key,
				),
			);
	}
	const shown = (property: INodeProperties) =>
		NodeHelpers.displayParameter(full, property, node, description);
	for (const problem of optionProblems(description.properties, given, '', shown))
		issues.push(issue('error', 'OPTION_NOT_ALLOWED', problem.message, problem.path));

	const credentialTypes = (description.credentials ?? []).map((credential) => credential.name);
	for (const type of Object.keys(node.credentials ?? {}))
		if (!credentialTypes.includes(type))
			issues.push(
				issue(
					'warning',
					'UNKNOWN_CREDENTIAL_TYPE',
					`"${type}" is not a credential type of ${node.type}; it takes ${credentialTypes.join(', ') || 'none'}.`,
					`credentials.${type}`,
				),
			);
	return issues;
}

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

const hasDynamicOptions = (property: INodeProperties) =>
	Boolean(
		property.typeOptions?.loadOptionsMethod ||
		property.typeOptions?.loadOptions ||
		property.typeOptions?.loadOptionsDependsOn,
	);

/** Values of static option lists that are not in their list, recursing into (fixed) collections. */
function optionProblems(
	properties: readonly INodeProperties[],
	values: unknown,
	path: string,
	shown: (property: INodeProperties) => boolean = () => true,
): Array<{ path: string; message: string }> {
	if (!values || typeof values !== 'object') return [];
	const record = values as Record<string, unknown>;
	const problems: Array<{ path: string; message: string }> = [];
	for (const property of properties) {
		if (!(property.name in record) || !shown(property)) continue;
		const value = record[property.name];
		const where = path ? `${path}.${property.name}` : property.name;
		const options = property.options as unknown[] | undefined;
		if (
			(property.type === 'options' || property.type === 'multiOptions') &&
			Array.isArray(options) &&
			!hasDynamicOptions(property) &&
			!isExpression(value)
		) {
			const allowed = options.map((option) => (option as { value: unknown }).value);
			const values = property.type === 'multiOptions' && Array.isArray(value) ? value : [value];
			for (const one of values)
				if (!allowed.includes(one as never))
					problems.push({
						path: where,
						message: `"${where}" is ${JSON.stringify(one)}; allowed: ${allowed.map((option) => JSON.stringify(option)).join(', ')}.`,
					});
		} else if (property.type === 'collection' && Array.isArray(options)) {
			problems.push(...optionProblems(options as INodeProperties[], value, where));
		} else if (property.type === 'fixedCollection' && Array.isArray(options) && value) {
			for (const group of options as Array<{ name: string; values?: INodeProperties[] }>) {
				const entries = (value as Record<string, unknown>)[group.name];
				const list = Array.isArray(entries) ? entries : entries ? [entries] : [];
				list.forEach((entry, index) =>
					problems.push(
						...optionProblems(
							group.values ?? [],
							entry,
							`${where}.${group.name}${Array.isArray(entries) ? `[${index}]` : ''}`,
						),
					),
				);
			}
		}
	}
	return problems;
}
