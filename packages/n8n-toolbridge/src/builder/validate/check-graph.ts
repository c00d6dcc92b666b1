import type { INode, INodeTypeDescription } from 'n8n-workflow';
import type { WorkflowJSON } from '@n8n/workflow-sdk';
import type { NodeCatalog } from '../catalog/node-catalog';
import type { BuildIssue } from './build-issue';

/** One connection of a workflow's JSON. */
interface Edge {
	source: string;
	type: string;
	output: number;
	target: string;
	input: number;
}

/** Node types whose cycles are loops by design: a loop over batches. */
const LOOP_TYPES = new Set(['n8n-nodes-base.splitInBatches']);

/**
 * Graph checks the SDK's validation does not make, on the workflow's JSON: every connection
 * joins nodes that have that kind of output and input (`INVALID_CONNECTION`: main into a
 * trigger or a sub-node, an `ai_tool` into a node without that input, an output index past a
 * node's outputs); every sub-node is connected to a parent (`SUBNODE_NOT_CONNECTED`); and no
 * cycle lacks a way out (`CYCLE`: loops go through Loop Over Items, or leave through a branch
 * of an IF / Switch / Filter). Nodes whose type is unknown are left to the node checks.
 */
export function checkGraph(json: WorkflowJSON, catalog: NodeCatalog): BuildIssue[] {
	const nodes = new Map((json.nodes as INode[]).map((node) => [node.name, node]));
	const describe = (node: INode | undefined): INodeTypeDescription | undefined => {
		if (!node) return undefined;
		try {
			return catalog.describe(node.type, Number(node.typeVersion));
		} catch {
			return undefined;
		}
	};
	const issues: BuildIssue[] = [];
	const error = (code: string, node: string, message: string) =>
		issues.push({ severity: 'error', source: 'graph', code, node, message });
	const edges = edgesOf(json);

	for (const edge of edges) {
		const source = nodes.get(edge.source);
		const target = nodes.get(edge.target);
		if (!source || !target) {
			error(
				'INVALID_CONNECTION',
				edge.source,
				`A connection joins "${edge.source}" to "${edge.target}", but ${source ? `"${edge.target}"` : `"${edge.source}"`} is not a node of the workflow.`,
			);
			continue;
		}
		const sourceType = describe(source);
		const targetType = describe(target);
		if (!sourceType || !targetType) continue;
		const outputs = portTypes(sourceType.outputs);
		const inputs = portTypes(targetType.inputs);
		if (outputs && !outputs.includes(edge.type))
			error(
				'INVALID_CONNECTION',
				edge.source,
				`"${edge.source}" (${source.type}) has no ${edge.type} output, so it cannot connect to "${edge.target}" that way; its outputs: ${outputs.join(', ') || 'none'}.`,
			);
		else if (inputs && !inputs.includes(edge.type))
			error(
				'INVALID_CONNECTION',
				edge.target,
				edge.type === 'main'
					? `"${edge.target}" (${target.type}) takes no main input${isTrigger(targetType) ? ' (it is a trigger: it starts the workflow)' : " (it is a sub-node: put it in its parent's subnodes)"}, but "${edge.source}" connects to it.`
					: `"${edge.target}" (${target.type}) takes no ${edge.type} input, but "${edge.source}" connects to it that way; its inputs: ${inputs.join(', ') || 'none'}.`,
			);
		else if (
			edge.type === 'main' &&
			outputs &&
			Array.isArray(sourceType.outputs) &&
			edge.output >= outputs.filter((type) => type === 'main').length
		)
			error(
				'INVALID_CONNECTION',
				edge.source,
				`"${edge.source}" has ${outputs.filter((type) => type === 'main').length} main output(s); output ${edge.output} does not exist.`,
			);
	}

	const sending = new Set(edges.map((edge) => edge.source));
	for (const node of nodes.values()) {
		const description = describe(node);
		const outputs = description && portTypes(description.outputs);
		if (!outputs || outputs.length === 0 || outputs.some((type) => type === 'main')) continue;
		if (!sending.has(node.name) && node.disabled !== true)
			error(
				'SUBNODE_NOT_CONNECTED',
				node.name,
				`"${node.name}" is a sub-node (${outputs.join(', ')}) connected to nothing: put it in a parent's subnodes (e.g. an AI Agent's subnodes.${subnodeSlot(outputs[0])}).`,
			);
	}

	for (const cycle of cyclesWithoutExit(edges, nodes, describe))
		error(
			'CYCLE',
			cycle[0],
			`The nodes ${[...cycle, cycle[0]].map((name) => `"${name}"`).join(' → ')} form a cycle with no way out, so it would run forever. Loop over items with splitInBatches(…).onEachBatch(… .to(nextBatch(loop))), or leave the cycle through a branch of an IF or Switch.`,
		);
	return issues;
}

/** The port types a description declares; undefined when they are computed by an expression. */
function portTypes(ports: INodeTypeDescription['inputs'] | undefined): string[] | undefined {
	if (ports === undefined) return [];
	if (typeof ports === 'string') return undefined;
	return ports.map((port) => (typeof port === 'string' ? port : port.type) as string);
}

function isTrigger(description: INodeTypeDescription): boolean {
	return description.group?.includes('trigger') ?? false;
}

function subnodeSlot(output: string): string {
	const slots: Record<string, string> = {
		ai_languageModel: 'model',
		ai_memory: 'memory',
		ai_tool: 'tools',
		ai_outputParser: 'outputParser',
	};
	return slots[output] ?? output.replace(/^ai_/, '');
}

/** Every connection of the JSON, flattened. */
export function edgesOf(json: WorkflowJSON): Edge[] {
	const edges: Edge[] = [];
	for (const [source, byType] of Object.entries(json.connections ?? {}))
		for (const [type, outputs] of Object.entries(byType ?? {}))
			(outputs ?? []).forEach((targets, output) => {
				for (const target of targets ?? [])
					if (target?.node)
						edges.push({ source, type, output, target: target.node, input: target.index ?? 0 });
			});
	return edges;
}

/**
 * The cycles (strongly connected parts of the main graph, or a node connected to itself) with
 * no way out: none of their nodes is a Loop Over Items, and none has several main outputs of
 * which one leaves the cycle (an IF's false branch, a Switch case) or is a Filter.
 */
function cyclesWithoutExit(
	edges: Edge[],
	nodes: Map<string, INode>,
	describe: (node: INode | undefined) => INodeTypeDescription | undefined,
): string[][] {
	const main = edges.filter((edge) => edge.type === 'main' && nodes.has(edge.target));
	const next = new Map<string, string[]>();
	for (const edge of main) next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
	const found: string[][] = [];
	for (const part of stronglyConnected([...nodes.keys()], next)) {
		const members = new Set(part);
		const isCycle = part.length > 1 || (next.get(part[0]) ?? []).includes(part[0]);
		if (!isCycle) continue;
		const hasExit = part.some((name) => {
			const node = nodes.get(name)!;
			if (LOOP_TYPES.has(node.type) || node.type === 'n8n-nodes-base.filter') return true;
			const description = describe(node);
			const outputs = description ? portTypes(description.outputs) : undefined;
			const branches =
				outputs === undefined || outputs.filter((type) => type === 'main').length > 1;
			return branches && main.some((edge) => edge.source === name && !members.has(edge.target));
		});
		if (!hasExit) found.push(cyclePath(part[0], members, next));
	}
	return found;
}

/** A shortest path from `start` back to itself inside `members` (the nodes of one cycle, in order). */
function cyclePath(start: string, members: Set<string>, next: Map<string, string[]>): string[] {
	const cameFrom = new Map<string, string>();
	const queue = [start];
	while (queue.length > 0) {
		const name = queue.shift()!;
		for (const child of next.get(name) ?? []) {
			if (!members.has(child)) continue;
			if (child === start) {
				const path = [name];
				while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
				return path;
			}
			if (!cameFrom.has(child)) {
				cameFrom.set(child, name);
				queue.push(child);
			}
		}
	}
	return [...members];
}

/** Tarjan's strongly connected components, iterative (a long chain must not overflow the stack). */
function stronglyConnected(names: string[], next: Map<string, string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const onStack = new Set<string>();
	const stack: string[] = [];
	const components: string[][] = [];
	let counter = 0;
	for (const start of names) {
		if (index.has(start)) continue;
		const work: Array<{ name: string; child: number }> = [{ name: start, child: 0 }];
		index.set(start, counter);
		low.set(start, counter++);
		stack.push(start);
		onStack.add(start);
		while (work.length > 0) {
			const frame = work[work.length - 1];
			const children = next.get(frame.name) ?? [];
			if (frame.child < children.length) {
				const child = children[frame.child++];
				if (!index.has(child)) {
					index.set(child, counter);
					low.set(child, counter++);
					stack.push(child);
					onStack.add(child);
					work.push({ name: child, child: 0 });
				} else if (onStack.has(child))
					low.set(frame.name, Math.min(low.get(frame.name)!, index.get(child)!));
				continue;
			}
			work.pop();
			if (work.length > 0) {
				const parent = work[work.length - 1].name;
				low.set(parent, Math.min(low.get(parent)!, low.get(frame.name)!));
			}
			if (low.get(frame.name) === index.get(frame.name)) {
				const component: string[] = [];
				let member: string;
				do {
					member = stack.pop()!;
					onStack.delete(member);
					component.push(member);
				} while (member !== frame.name);
				components.push(component.reverse());
			}
		}
	}
	return components;
}
