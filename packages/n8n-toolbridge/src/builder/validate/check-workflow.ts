import {
	locateNodeDeclarations,
	workflow as sdkWorkflow,
	type WorkflowBuilder,
	type WorkflowJSON,
} from '@n8n/workflow-sdk';
import { formatWorkflowStructureIssuePath, safeParseWorkflowStructure } from 'n8n-workflow';
import type { StandaloneHost } from 'n8n-nodes-toolbridge';
import type { NodeCatalog } from '../catalog/node-catalog';
import { parseWorkflowCode } from '../code/parse-workflow-code';
import { WorkflowCodeError } from '../code/workflow-code-error';
import {
	finishWorkflow,
	type BuiltWorkflow,
	type CredentialNeeded,
	type FinishWorkflowOptions,
} from '../finish-workflow';
import { sortIssues, type BuildIssue } from './build-issue';
import { checkAgentTools, type AgentToolsLoad } from './check-agent-tools';
import { checkGraph } from './check-graph';
import { checkNodes } from './check-nodes';
import { checkWithSdk } from './check-with-sdk';

/** What the checks found in workflow code (or JSON). */
export interface WorkflowCheck {
	/** True when no check found an error (warnings and info may remain). */
	valid: boolean;
	/** Errors first, then warnings, then info; no duplicates. */
	issues: BuildIssue[];
	/** The workflow n8n imports (laid out, fresh ids); absent when the code could not be read. */
	workflow?: BuiltWorkflow;
	credentialsNeeded: CredentialNeeded[];
	/** Each agent's tools as the standalone host loaded them. */
	agents: AgentToolsLoad[];
}

/** What the checks need: the catalog and a host to load tools in. */
export interface CheckContext extends FinishWorkflowOptions {
	catalog: NodeCatalog;
	host: StandaloneHost;
}

/**
 * Reads workflow SDK code without running it and checks what it builds, in order: the SDK's
 * graph checks, our graph checks (connections, sub-node wiring, cycles), node checks against the
 * real descriptions, the SDK's schema checks, then the load: every agent's tools load in the
 * standalone host and every `$fromAI` compiles; last, n8n's own import check of the structure.
 * Issues about a node carry the line where the code declares it.
 */
export async function checkWorkflowCode(
	text: string,
	context: CheckContext,
): Promise<WorkflowCheck> {
	let builder: WorkflowBuilder;
	let code: string;
	try {
		({ builder, code } = parseWorkflowCode(text));
	} catch (error) {
		if (!(error instanceof WorkflowCodeError)) throw error;
		return failed({
			severity: 'error',
			source: 'parse',
			code: error.problem,
			line: error.line,
			message: error.message,
		});
	}
	const { workflow, credentialsNeeded } = finishWorkflow(builder, context.catalog, context);
	const { issues, agents } = await checkBuilt(
		builder,
		workflow as unknown as WorkflowJSON,
		context,
	);
	withLines(issues, code);
	return result(issues, agents, workflow, credentialsNeeded);
}

/**
 * The same checks for a workflow given as JSON (an n8n export): its positions and ids are kept.
 * @throws nothing for a malformed workflow: that is a `parse` issue.
 */
export async function checkWorkflowJson(
	input: unknown,
	context: CheckContext,
): Promise<WorkflowCheck> {
	const structure = safeParseWorkflowStructure(input);
	if (!structure.success) return failed(...structureIssues(structure.issues));
	let builder: WorkflowBuilder;
	try {
		builder = sdkWorkflow.fromJSON(input as WorkflowJSON);
	} catch (error) {
		return failed({
			severity: 'error',
			source: 'parse',
			code: 'INVALID_WORKFLOW_JSON',
			message: `The workflow JSON could not be read: ${(error as Error).message}`,
		});
	}
	const { issues, agents } = await checkBuilt(builder, input as WorkflowJSON, context);
	return result(issues, agents, undefined, []);
}

async function checkBuilt(
	builder: WorkflowBuilder,
	json: WorkflowJSON,
	context: CheckContext,
): Promise<{ issues: BuildIssue[]; agents: AgentToolsLoad[] }> {
	const nodeIssues = checkNodes(json.nodes as never, context.catalog);
	// The schema's warnings about a node repeat, less precisely, what the node checks found.
	const checkedNodes = new Set(
		nodeIssues.filter((issue) => issue.severity === 'error').map((issue) => issue.node),
	);
	const sdkIssues = checkWithSdk(builder, json, context.catalog).filter(
		(issue) =>
			!(issue.source === 'schema' && issue.severity !== 'error' && checkedNodes.has(issue.node)),
	);
	// Where the SDK already reports a problem of a node (e.g. SUBNODE_NOT_CONNECTED), ours is not repeated.
	const reported = new Set(sdkIssues.map((issue) => `${issue.code}|${issue.node}`));
	const graphIssues = checkGraph(json, context.catalog).filter(
		(issue) => !reported.has(`${issue.code}|${issue.node}`),
	);
	// A sub-node has no input by design: "not connected to any input" says nothing more about it.
	const loose = new Set(
		[...sdkIssues, ...graphIssues]
			.filter((issue) => issue.code === 'SUBNODE_NOT_CONNECTED')
			.map((issue) => issue.node),
	);
	const issues: BuildIssue[] = [
		...sdkIssues.filter((issue) => !(issue.code === 'DISCONNECTED_NODE' && loose.has(issue.node))),
		...graphIssues,
		...nodeIssues,
	];
	const load = await checkAgentTools(json, context.host, context.catalog);
	issues.push(...load.issues);
	const structure = safeParseWorkflowStructure(json);
	if (!structure.success) issues.push(...structureIssues(structure.issues));
	return { issues, agents: load.agents };
}

function structureIssues(
	found: Array<{ message: string; path: Array<string | number> }>,
): BuildIssue[] {
	return found.map((issue) => ({
		severity: 'error',
		source: 'structure',
		code: 'INVALID_STRUCTURE',
		path: issue.path.length ? formatWorkflowStructureIssuePath(issue.path) : undefined,
		message: `n8n would not import it: ${issue.message}`,
	}));
}

function withLines(issues: BuildIssue[], code: string): void {
	let lines: Map<string, number>;
	try {
		lines = new Map(
			locateNodeDeclarations(code)
				.filter((location) => location.name !== undefined)
				.map((location) => [location.name as string, location.line]),
		);
	} catch {
		return; // lines are a help, not a check
	}
	for (const issue of issues)
		if (issue.line === undefined && issue.node !== undefined) issue.line = lines.get(issue.node);
}

function result(
	issues: BuildIssue[],
	agents: AgentToolsLoad[],
	workflow: BuiltWorkflow | undefined,
	credentialsNeeded: CredentialNeeded[],
): WorkflowCheck {
	const sorted = sortIssues(issues);
	return {
		valid: !sorted.some((issue) => issue.severity === 'error'),
		issues: sorted,
		workflow,
		credentialsNeeded,
		agents,
	};
}

function failed(...issues: BuildIssue[]): WorkflowCheck {
	return { valid: false, issues, credentialsNeeded: [], agents: [] };
}
