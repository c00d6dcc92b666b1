import { readFileSync } from 'node:fs';
import type { IConnections, IDataObject, INode, IPinData, IWorkflowSettings } from 'n8n-workflow';
import { AgentNotFoundError } from '../../errors/agent-not-found-error';
import { WorkflowFileError } from '../../errors/workflow-file-error';

/** The parts of an n8n workflow export the tool host reads. */
export interface WorkflowExport {
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
	staticData?: IDataObject;
}

/**
 * Checks that a value is an n8n workflow export (the JSON n8n's "Download" writes, or the
 * clipboard form with `nodes` and `connections`).
 *
 * @throws WorkflowFileError when `nodes` or `connections` is missing or a node lacks name/type.
 */
export function parseWorkflow(value: unknown, origin = 'workflow'): WorkflowExport {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new WorkflowFileError(
			`${origin} is not an n8n workflow: expected a JSON object with "nodes" and "connections".`,
		);
	}
	const workflow = value as Partial<WorkflowExport>;
	if (!Array.isArray(workflow.nodes))
		throw new WorkflowFileError(
			`${origin} is not an n8n workflow: "nodes" is missing or not an array.`,
		);
	if (typeof workflow.connections !== 'object' || workflow.connections === null) {
		throw new WorkflowFileError(`${origin} is not an n8n workflow: "connections" is missing.`);
	}
	// The caller's object is never changed: defaults go into copies of the nodes.
	const nodes = workflow.nodes.map((node, index) => {
		if (typeof node?.name !== 'string' || typeof node.type !== 'string') {
			throw new WorkflowFileError(`${origin}: node #${index} has no "name" or "type".`);
		}
		return { ...node, parameters: node.parameters ?? {}, typeVersion: node.typeVersion ?? 1 };
	});
	const parsed = { ...workflow, nodes } as WorkflowExport;
	assertNoToolLoop(parsed);
	return parsed;
}

/**
 * Reads and parses a workflow export file.
 * @throws WorkflowFileError when the file cannot be read, is not JSON, or is not a workflow.
 */
export function readWorkflowFile(file: string): WorkflowExport {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw new WorkflowFileError(
			`Cannot read workflow file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
			{ cause: error },
		);
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new WorkflowFileError(
			`Workflow file ${file} is not valid JSON: ${(error as Error).message}.`,
			{ cause: error },
		);
	}
	return parseWorkflow(value, `Workflow file ${file}`);
}

/** Every `[source, target]` pair joined by an `ai_tool` connection, in connection order. */
function aiToolEdges(workflow: WorkflowExport): Array<[string, string]> {
	const edges: Array<[string, string]> = [];
	for (const [source, byType] of Object.entries(workflow.connections)) {
		for (const outputs of byType.ai_tool ?? []) {
			for (const connection of outputs ?? []) edges.push([source, connection.node]);
		}
	}
	return edges;
}

// The agent node types, with or without tools: n8n's AI Agent and the Agent Orchestrator (n8n's
// AI Agent Tool is a tool of another agent, so nested). Literal here: this file is read before them.
const agentNodeTypes = new Set([
	'@n8n/n8n-nodes-langchain.agent',
	'@n8n/n8n-nodes-langchain.agentTool',
	'n8n-nodes-toolbridge.agentOrchestrator',
]);

/**
 * Names of the agents (nodes of an agent type, with or without tools, and other nodes that
 * receive `ai_tool` connections), in workflow order. By default only the top-level ones: an agent whose own `ai_tool` output feeds another agent
 * (a nested AgentOrchestrator) is a tool of that agent, not a separate agent to choose.
 * `includeNested` lists those too. A human-review gate (`…HitlTool`, whose own `ai_tool`
 * input holds the tools it gates) is never an agent; nor is a disabled node.
 */
export function findAgentNames(
	workflow: WorkflowExport,
	options: { includeNested?: boolean } = {},
): string[] {
	const edges = aiToolEdges(workflow);
	const targets = new Set(edges.map(([, target]) => target));
	// An agent whose own `ai_tool` output feeds another node is a tool of that agent.
	const nested = new Set(
		edges.filter(([source, target]) => target !== source).map(([source]) => source),
	);
	return workflow.nodes
		.filter(
			(node) =>
				(targets.has(node.name) || (agentNodeTypes.has(node.type) && node.disabled !== true)) &&
				!node.type.endsWith('HitlTool') &&
				(options.includeNested || !nested.has(node.name)),
		)
		.map((node) => node.name);
}

/**
 * The agent node: the one named (nested agents included), or the only top-level agent (see
 * {@link findAgentNames}: a node of an agent type, with or without tools).
 * @throws AgentNotFoundError when the name matches no agent, or there are zero or several agents.
 */
export function selectAgent(workflow: WorkflowExport, agentName?: string): INode {
	const agents = findAgentNames(workflow);
	const list = agents.map((name) => `"${name}"`).join(', ');
	if (agentName !== undefined) {
		// A nested agent may be chosen by name (to list or call its own tools).
		if (!findAgentNames(workflow, { includeNested: true }).includes(agentName)) {
			throw new AgentNotFoundError(
				`No agent named "${agentName}": ${agents.length ? `the agents are ${list}` : 'the workflow has no agent (an AI Agent or Agent Orchestrator node, or a node with tools connected to its ai_tool input)'}.`,
				agents,
			);
		}
		return workflow.nodes.find((node) => node.name === agentName)!;
	}
	if (agents.length === 0)
		throw new AgentNotFoundError(
			'No agent in this workflow: no AI Agent or Agent Orchestrator node, and no node has tools connected to its ai_tool input.',
			agents,
		);
	if (agents.length > 1)
		throw new AgentNotFoundError(
			`Several agents in this workflow (${list}): choose one with --agent NAME.`,
			agents,
		);
	return workflow.nodes.find((node) => node.name === agents[0])!;
}

/** The enabled nodes connected to the agent's `ai_tool` input, in workflow node order. */
export function findToolNodes(workflow: WorkflowExport, agentName: string): INode[] {
	const sources = new Set(
		aiToolEdges(workflow)
			.filter(([, target]) => target === agentName)
			.map(([source]) => source),
	);
	return workflow.nodes.filter((node) => sources.has(node.name) && node.disabled !== true);
}

/**
 * Refuses `ai_tool` connections that loop: an agent that is its own tool, directly or through
 * other agents. The message names the loop as a path from an agent through its tools.
 * @throws WorkflowFileError naming the loop, e.g. `Agent › Hash › Agent`.
 */
export function assertNoToolLoop(workflow: WorkflowExport): void {
	const toolsOf = new Map<string, string[]>();
	for (const [tool, agent] of aiToolEdges(workflow))
		toolsOf.set(agent, [...(toolsOf.get(agent) ?? []), tool]);
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (name: string): string[] | undefined => {
		state.set(name, 'open');
		path.push(name);
		for (const tool of toolsOf.get(name) ?? []) {
			if (state.get(tool) === 'open') return [...path.slice(path.indexOf(tool)), tool];
			if (!state.has(tool)) {
				const loop = visit(tool);
				if (loop) return loop;
			}
		}
		path.pop();
		state.set(name, 'done');
		return undefined;
	};
	for (const agent of toolsOf.keys()) {
		const loop = state.has(agent) ? undefined : visit(agent);
		if (loop) {
			throw new WorkflowFileError(
				`The workflow's ai_tool connections form a loop: ${loop.join(' › ')}. An agent cannot be a tool of itself, directly or through other agents: remove one of these connections.`,
			);
		}
	}
}

/**
 * A workflow export from a file path, JSON text or the parsed object.
 * @throws WorkflowFileError when the input is not a workflow export.
 */
export function readWorkflowInput(input: string | object): WorkflowExport {
	if (typeof input !== 'string') return parseWorkflow(input);
	if (input.trimStart().startsWith('{')) {
		let value: unknown;
		try {
			value = JSON.parse(input);
		} catch (error) {
			throw new WorkflowFileError(
				`Workflow JSON text is not valid JSON: ${(error as Error).message}.`,
				{ cause: error },
			);
		}
		return parseWorkflow(value, 'Workflow JSON text');
	}
	return readWorkflowFile(input);
}
