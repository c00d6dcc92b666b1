import type { StandaloneHost, ToolObservation } from 'n8n-nodes-toolbridge';
import type { McpTool } from '../mcp/mcp-tool';
import { buildWorkflow } from './agent/build-workflow';
import type { BuilderModelOptions } from './agent/builder-connection';
import { buildResultJson } from './agent/build-progress';
import type { NodeCatalog } from './catalog/node-catalog';
import {
	discoveryTools,
	getNodesSchema,
	searchNodesSchema,
	GET_NODES_DESCRIPTION,
	SEARCH_NODES_DESCRIPTION,
} from './discovery/discovery-tools';
import {
	checkWorkflowCode,
	checkWorkflowJson,
	type WorkflowCheck,
} from './validate/check-workflow';

/** What the builder's MCP tools share: the catalog, the host that loads tools, the model for `build_workflow`. */
export interface BuilderMcpToolsOptions {
	catalog: NodeCatalog;
	host: StandaloneHost;
	/** The model connection of `build_workflow` (the server's `--model`, `--base-url`, `--api-key`). */
	model: BuilderModelOptions;
}

/**
 * The workflow builder as MCP tools, so a client builds with its own model and checks with
 * ours: `search_nodes` and `get_nodes` (the discovery the built-in builder uses),
 * `validate_workflow` (SDK code or workflow JSON → the same checks, the agents' tools loaded)
 * and `build_workflow` (the whole one-shot builder on the server's model). Each answers with
 * text; `validate_workflow` and `build_workflow` also with the JSON of their report.
 */
export function builderMcpTools(options: BuilderMcpToolsOptions): McpTool[] {
	const [search, lookup] = discoveryTools(options.catalog);
	const context = { catalog: options.catalog, host: options.host };
	return [
		{
			name: 'search_nodes',
			description: SEARCH_NODES_DESCRIPTION,
			inputSchema: searchNodesSchema,
			call: (args, { signal }) => search.invoke(args, { toolCallId: 'mcp-search_nodes', signal }),
		},
		{
			name: 'get_nodes',
			description: GET_NODES_DESCRIPTION,
			inputSchema: getNodesSchema,
			call: (args, { signal }) => lookup.invoke(args, { toolCallId: 'mcp-get_nodes', signal }),
		},
		{
			name: 'validate_workflow',
			description:
				'Check an n8n workflow without running it: give "code" (workflow SDK code, read without executing it) or "workflow" (n8n workflow JSON). Checks the graph, every node against its real description and loads every agent\'s tools (each $fromAI compiled). Returns { valid, issues, agents, credentialsNeeded, workflow } — for code, "workflow" is the JSON n8n imports.',
			inputSchema: {
				type: 'object',
				properties: {
					code: { type: 'string', description: 'Workflow SDK code (JavaScript).' },
					workflow: {
						type: ['object', 'string'],
						description: 'An n8n workflow export (object or JSON text).',
					},
				},
				additionalProperties: false,
			},
			call: async (args) => {
				const hasCode = typeof args.code === 'string';
				const hasWorkflow = args.workflow !== undefined;
				if (hasCode === hasWorkflow)
					return errorObservation(
						'Give exactly one of "code" (SDK code) or "workflow" (n8n JSON).',
					);
				const check = hasCode
					? await checkWorkflowCode(args.code as string, context)
					: await checkWorkflowJson(readJson(args.workflow), context);
				return jsonObservation(checkReport(check, hasCode));
			},
		},
		{
			name: 'build_workflow',
			description:
				'Build an n8n workflow from a sentence with the server\'s own model and builder (search, node types, SDK code, checks and corrections). Give "request"; give "from" (workflow JSON) to change an existing workflow. Returns { valid, workflow, code, issues, credentialsNeeded, agents, stats }.',
			inputSchema: {
				type: 'object',
				properties: {
					request: { type: 'string', description: 'What the workflow should do (or the change).' },
					from: {
						type: ['object', 'string'],
						description: 'The workflow to change (n8n JSON).',
					},
				},
				required: ['request'],
				additionalProperties: false,
			},
			call: async (args, { signal, progress }) => {
				if (typeof args.request !== 'string' || args.request.trim() === '')
					return errorObservation('"request" must say what the workflow should do.');
				try {
					const result = await buildWorkflow({
						...options.model,
						...context,
						request: args.request,
						from: args.from === undefined ? undefined : (readJson(args.from) as object),
						signal,
						onEvent: (event) => {
							if (event.type === 'check')
								progress(
									`check ${event.round}: ${event.check.valid ? 'valid' : `${event.check.issues.filter((issue) => issue.severity === 'error').length} error(s)`}`,
								);
							else if (event.type === 'search')
								progress(`search_nodes: ${event.queries.join(', ')}`);
						},
					});
					const report = buildResultJson(result);
					return { ...jsonObservation(report), isError: !result.valid };
				} catch (error) {
					return errorObservation((error as Error).message);
				}
			},
		},
	];
}

function checkReport(check: WorkflowCheck, fromCode: boolean): Record<string, unknown> {
	const report: Record<string, unknown> = {
		valid: check.valid,
		issues: check.issues,
		agents: check.agents,
		credentialsNeeded: check.credentialsNeeded,
	};
	if (fromCode && check.workflow) report.workflow = check.workflow;
	return report;
}

/** A workflow given as an object or as JSON text. */
function readJson(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch {
		return value; // the structure check reports it
	}
}

function jsonObservation(value: Record<string, unknown>): ToolObservation {
	return { content: JSON.stringify(value, null, 2), isError: false, value };
}

function errorObservation(message: string): ToolObservation {
	return { content: `Error: ${message}`, isError: true };
}
