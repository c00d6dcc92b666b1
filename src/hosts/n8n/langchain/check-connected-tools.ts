import { NodeOperationError, type IExecuteFunctions, type NodeTypeAndVersion } from 'n8n-workflow';
import type { FromAIError } from '../../../errors/from-ai-error';
import { collectFromAIMarkers } from '../../../from-ai/collect-from-ai-markers';
import { mergeFromAIMarkers } from '../../../schema/merge-from-ai-markers';

/** Node types whose own `ai_tool` inputs n8n also turns into tools (human-review gates). */
const GATE_TYPE_SUFFIX = 'HitlTool';

/**
 * Every `$fromAI` problem in the nodes connected to this node's `ai_tool` input (and in the
 * tools behind a human-review gate connected there), found with this package's compiler:
 * malformed calls, bad keys or types, and keys used incompatibly within one node. Disabled
 * nodes are skipped, as n8n skips them. Each error names the node, the parameter path and
 * the position in the value.
 *
 * n8n builds the connected tools with its own scanner inside `getInputConnectionData`, where
 * such a problem surfaces late (a key error only at runtime), without a location, or not at
 * all (a `$FROMAI` that silently evaluates to `undefined`); this check runs before that.
 * A context without `getParentNodes` (not an n8n-core context, e.g. a test double) has no
 * workflow to read: nothing is checked.
 */
export function findConnectedToolProblems(context: IExecuteFunctions): FromAIError[] {
	const problems: FromAIError[] = [];
	if (typeof (context as Partial<IExecuteFunctions>).getParentNodes !== 'function') return problems;
	const seen = new Set<string>();
	const visit = (nodeName: string, depth: number): void => {
		for (const parent of connectedTools(context, nodeName)) {
			if (parent.disabled === true || seen.has(parent.name)) continue;
			seen.add(parent.name);
			const { markers, errors } = collectFromAIMarkers(parent.parameters ?? {}, {
				nodeName: parent.name,
			});
			problems.push(...errors);
			if (errors.length === 0)
				problems.push(...mergeFromAIMarkers(markers, { nodeName: parent.name }).errors);
			if (depth === 0 && parent.type.endsWith(GATE_TYPE_SUFFIX)) visit(parent.name, depth + 1);
		}
	};
	visit(context.getNode().name, 0);
	return problems;
}

/**
 * Checks the nodes connected to this node's `ai_tool` input before n8n builds them into tools
 * (see {@link findConnectedToolProblems}). Call it before `getInputConnectionData('ai_tool')`.
 *
 * @throws {NodeOperationError} listing every problem (node, parameter path, position, what is
 *   allowed) when any connected tool has a malformed `$fromAI`.
 */
export function checkConnectedTools(context: IExecuteFunctions): void {
	const problems = findConnectedToolProblems(context);
	if (problems.length === 0) return;
	const nodes = [
		...new Set(problems.map((problem) => problem.nodeName).filter((name) => name !== undefined)),
	];
	const lines = problems.map((problem) => `- ${problem.message}`);
	throw new NodeOperationError(
		context.getNode(),
		`${problems.length === 1 ? 'A connected tool has' : `Connected tools have ${problems.length}`} malformed $fromAI ${problems.length === 1 ? 'call' : 'calls'} (${nodes.map((name) => `'${name}'`).join(', ')}):\n${lines.join('\n')}`,
		{
			description:
				"The syntax is $fromAI('key', 'description', 'type', default): key and type are quoted literals, " +
				"the key is 1–64 letters, digits, '_' or '-', the type is string, number, boolean or json. Fix the parameter in the tool node named above.",
		},
	);
}

function connectedTools(context: IExecuteFunctions, nodeName: string): NodeTypeAndVersion[] {
	return context.getParentNodes(nodeName, {
		connectionType: 'ai_tool',
		depth: 1,
		includeNodeParameters: true,
	});
}
