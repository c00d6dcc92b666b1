import { ExpressionError, type IDataObject, type INodeExecutionData } from 'n8n-workflow';
import { UnresolvedNodeReferenceError } from '../../errors/unresolved-node-reference-error';
import type { WorkflowExport } from './workflow-file';

/** The output of nodes that do not run here, by node name: `--pin NODE=JSON` over the export's `pinData`. */
export type PinnedNodeData = Record<string, INodeExecutionData[]>;

/**
 * What expressions of an agent read from other nodes of the workflow: `$('Name')` — and the
 * legacy `$node["Name"]` and `$items("Name")` — answer from the nodes' pinned output, as n8n
 * answers a manual run with pinned data (`.item` is the first item: the agent receives one). Add {@link keys} to an expression's additional keys;
 * run its evaluation through {@link resolve} (or pass what it threw to {@link explain}) so that
 * a node without pinned output is an {@link UnresolvedNodeReferenceError}, not n8n's
 * "Referenced node doesn't exist".
 */
export interface NodeReferences {
	/** The additional keys (`$`) of an expression evaluation. */
	readonly keys: IDataObject;
	/**
	 * Runs `evaluate` — the evaluation of `where.value`, parameter `where.parameter` of node
	 * `where.node` — turning a reference to a node without output into an
	 * {@link UnresolvedNodeReferenceError} for `where.agentName`.
	 * @throws {UnresolvedNodeReferenceError} for a reference that cannot resolve; whatever `evaluate` throws otherwise.
	 */
	resolve<T>(evaluate: () => T, where: ReferenceSite): T;
	/** The error to report for `error` (thrown by an evaluation at `where`, perhaps as a cause) when it is a reference that cannot resolve. */
	explain(error: unknown, where: ReferenceSite): UnresolvedNodeReferenceError | undefined;
}

/** Where an expression being evaluated is. */
export interface ReferenceSite {
	/** The agent whose run reads it. */
	agentName: string;
	/** The node whose parameter it is. */
	node: string;
	/** The parameter's name. */
	parameter: string;
	/** The parameter's raw value (to name the path inside a collection, e.g. `options.systemMessage`). */
	value?: unknown;
}

/**
 * The pinned output of the workflow's nodes: the export's `pinData`, with `pins` (node name →
 * the JSON of its item, an array of items' JSON, or n8n items `{ json }`) over it.
 */
export function pinnedNodeData(
	workflow: Pick<WorkflowExport, 'pinData'>,
	pins: Record<string, unknown> = {},
): PinnedNodeData {
	const pinned: PinnedNodeData = {};
	for (const [name, value] of Object.entries({ ...workflow.pinData, ...pins }))
		pinned[name] = (Array.isArray(value) ? value : [value]).map(toItem);
	return pinned;
}

/** The references of `workflow`'s expressions to the nodes in `pinned`. */
export function nodeReferences(workflow: WorkflowExport, pinned: PinnedNodeData): NodeReferences {
	const reference = (nodeName: string): IDataObject => {
		if (!Object.hasOwn(pinned, nodeName)) return unexecuted(nodeName);
		const items = pinned[nodeName];
		const at = (index?: number): INodeExecutionData | undefined => items[index ?? 0] ?? items[0];
		return {
			item: at(0),
			first: () => items[0],
			last: () => items.at(-1),
			all: () => items,
			pairedItem: at,
			itemMatching: at,
			isExecuted: true,
			params: workflow.nodes.find((node) => node.name === nodeName)?.parameters ?? {},
			context: {},
		};
	};
	const explain = (error: unknown, where: ReferenceSite) => {
		const nodeName = nodeCauseOf(error);
		if (nodeName === undefined) return undefined;
		return new UnresolvedNodeReferenceError(
			{
				agentName: where.agentName,
				parameterPath: `${where.node} › ${pathNaming(where.value, nodeName, where.parameter)}`,
				nodeName,
				nodeExists: workflow.nodes.some((node) => node.name === nodeName),
			},
			{ cause: error },
		);
	};
	return {
		keys: { $: reference, $node: legacyNodeProxy(workflow, pinned), $items: legacyItems(pinned) },
		explain,
		resolve(evaluate, where) {
			try {
				return evaluate();
			} catch (error) {
				throw explain(error, where) ?? error;
			}
		},
	};
}

/** The path (`options.systemMessage`) of the first string in `value` that names `nodeName`, or `fallback`. */
function pathNaming(value: unknown, nodeName: string, fallback: string): string {
	const search = (current: unknown, path: string): string | undefined => {
		if (typeof current === 'string') return current.includes(nodeName) ? path : undefined;
		if (typeof current !== 'object' || current === null) return undefined;
		for (const [key, child] of Object.entries(current)) {
			const found = search(child, Array.isArray(current) ? `${path}[${key}]` : `${path}.${key}`);
			if (found !== undefined) return found;
		}
		return undefined;
	};
	return search(value, fallback) ?? fallback;
}

function toItem(value: unknown): INodeExecutionData {
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		const json = (value as { json?: unknown }).json;
		if (typeof json === 'object' && json !== null && !Array.isArray(json))
			return value as INodeExecutionData;
		return { json: value as IDataObject };
	}
	return { json: { value } as IDataObject };
}

const noOutput = (nodeName: string): string => `No output of node "${nodeName}"`;

/**
 * n8n's legacy `$node["Name"]`: the node's first output item (`json`, `binary`, `data`), its
 * `parameter`s, `runIndex` 0 and an empty `context`. Reading the data of a node without pinned
 * output throws as `$('Name')` does; a name of no node throws n8n's own message.
 */
function legacyNodeProxy(workflow: WorkflowExport, pinned: PinnedNodeData): IDataObject {
	return new Proxy(
		{},
		{
			get(_, name) {
				if (typeof name !== 'string') return undefined;
				const node = workflow.nodes.find((candidate) => candidate.name === name);
				if (!node) throw new ExpressionError("Referenced node doesn't exist", { nodeCause: name });
				const data = (): INodeExecutionData => {
					const item = Object.hasOwn(pinned, name) ? pinned[name][0] : undefined;
					if (!item) throw new ExpressionError(noOutput(name), { nodeCause: name });
					return item;
				};
				return Object.defineProperties(
					{ parameter: node.parameters, runIndex: 0, context: {} },
					{
						json: { get: () => data().json, enumerable: true },
						data: { get: () => data().json, enumerable: true },
						binary: { get: () => data().binary ?? {}, enumerable: true },
					},
				);
			},
		},
	) as IDataObject;
}

/**
 * n8n's legacy `$items("Name", outputIndex?, runIndex?)`: the node's pinned output items (one
 * output, one run here). A node without pinned output throws as `$('Name')` does.
 */
function legacyItems(pinned: PinnedNodeData): (nodeName?: string) => INodeExecutionData[] {
	return (nodeName) => {
		if (nodeName === undefined)
			throw new ExpressionError(
				'$items() without a node name reads the previous node, which does not run here: name the node, $items("Name")',
			);
		if (!Object.hasOwn(pinned, nodeName))
			throw new ExpressionError(noOutput(nodeName), { nodeCause: nodeName });
		return pinned[nodeName];
	};
}

/** `$('Name')` of a node without output: `isExecuted` is false (as in n8n); reading its data throws. */
function unexecuted(nodeName: string): IDataObject {
	const fail = (): never => {
		throw new ExpressionError(noOutput(nodeName), { nodeCause: nodeName });
	};
	const reference: IDataObject = { isExecuted: false, params: {}, context: {} };
	for (const method of ['first', 'last', 'all', 'pairedItem', 'itemMatching'])
		reference[method] = fail as never;
	return Object.defineProperty(reference, 'item', { get: fail, enumerable: true });
}

/**
 * The node a failed evaluation could not read: ours (`$('Name')` without pinned output) or n8n's
 * own "Referenced node doesn't exist" (from `$node`, `$items`), found along the `cause` chain
 * (a node's supplyData wraps what its expressions throw).
 */
function nodeCauseOf(error: unknown): string | undefined {
	for (let current = error, depth = 0; current && depth < 5; depth++) {
		if (current instanceof ExpressionError) {
			const cause = (current.context as { nodeCause?: unknown }).nodeCause;
			const known =
				typeof cause === 'string' &&
				(current.message === noOutput(cause) ||
					/Referenced node doesn't exist|hasn't been executed/.test(current.message));
			if (known) return cause;
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}
