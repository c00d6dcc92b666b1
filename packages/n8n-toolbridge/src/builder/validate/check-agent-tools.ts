import {
	findAgentNames,
	findToolNodes,
	loadWorkflowTools,
	type StandaloneHost,
	type WorkflowExport,
} from 'n8n-nodes-toolbridge';
import type { WorkflowJSON } from '@n8n/workflow-sdk';
import type { NodeCatalog } from '../catalog/node-catalog';
import type { BuildIssue } from './build-issue';

/** What loading an agent's tools in the standalone host gave. */
export interface AgentToolsLoad {
	agent: string;
	/** The tools that loaded, by the name the model calls them. */
	tools: string[];
	/** Tool nodes described but not loadable here (their package is not installed). */
	notLoaded: string[];
}

/**
 * Loads every agent's tools through the standalone host, as `toolbridge tools` and `run` would:
 * each tool node becomes a real n8n node tool and every `$fromAI` compiles (`TOOL_LOAD` errors
 * otherwise: bad `$fromAI` types or keys, a Python Code tool, a node that cannot run here).
 * Tool nodes of a package that is only described (LangChain's sub-nodes without the add-on
 * installed) are left out of the load with a `NOT_LOADED` warning; unknown types are left to
 * the node checks, so one bad node does not hide the others.
 */
export async function checkAgentTools(
	json: WorkflowJSON,
	host: StandaloneHost,
	catalog: NodeCatalog,
): Promise<{ issues: BuildIssue[]; agents: AgentToolsLoad[] }> {
	const workflow = json as unknown as WorkflowExport;
	const issues: BuildIssue[] = [];
	const agents: AgentToolsLoad[] = [];
	for (const agent of findAgentNames(workflow, { includeNested: true })) {
		const toolNodes = findToolNodes(workflow, agent);
		const left = new Set<string>();
		const notLoaded: string[] = [];
		for (const node of toolNodes) {
			const entry = catalog.find(node.type);
			if (entry?.loadable) continue;
			left.add(node.name);
			if (!entry) continue;
			notLoaded.push(node.name);
			issues.push({
				severity: 'warning',
				source: 'load',
				code: 'NOT_LOADED',
				node: node.name,
				message: `Tool "${node.name}" (${node.type}) is checked by its description only: it loads when ${entry.packageName} is installed (the LangChain add-on: npm install --ignore-scripts ${entry.packageName}@${catalog.langChain.version}). Prefer a tool of n8n-nodes-base if one does the job.`,
			});
		}
		const load: AgentToolsLoad = { agent, tools: [], notLoaded };
		agents.push(load);
		if (toolNodes.every((node) => left.has(node.name))) continue;
		try {
			const loaded = await loadWorkflowTools(withoutNodes(workflow, left), {
				host,
				agent,
				onBuildError: 'collect',
			});
			load.tools = loaded.tools.map((tool) => tool.name);
			for (const problem of loaded.problems)
				issues.push({
					severity: 'error',
					source: 'load',
					code: 'TOOL_LOAD',
					node: problem.nodeName,
					path: problem.path?.replace(/^parameters\./, ''),
					message: problem.message,
				});
		} catch (error) {
			const node = (error as { nodeName?: unknown }).nodeName;
			issues.push({
				severity: 'error',
				source: 'load',
				code: 'TOOL_LOAD',
				node: typeof node === 'string' ? node : agent,
				message: `The tools of "${agent}" do not load: ${(error as Error).message}`,
			});
		}
	}
	return { issues, agents };
}

/** The workflow without some nodes and their connections. */
function withoutNodes(workflow: WorkflowExport, names: Set<string>): WorkflowExport {
	if (names.size === 0) return workflow;
	const connections: WorkflowExport['connections'] = {};
	for (const [source, byType] of Object.entries(workflow.connections)) {
		if (names.has(source)) continue;
		connections[source] = Object.fromEntries(
			Object.entries(byType).map(([type, outputs]) => [
				type,
				outputs.map((targets) => (targets ?? []).filter((target) => !names.has(target.node))),
			]),
		);
	}
	return {
		...workflow,
		nodes: workflow.nodes.filter((node) => !names.has(node.name)),
		connections,
	};
}
