import {
	createRunExecutionData,
	Workflow,
	type ExecuteWorkflowData,
	type ExecuteWorkflowOptions,
	type ICredentialsHelper,
	type INodeTypes,
	type IRun,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { SubWorkflowError } from '../../../errors/sub-workflow-error';
import { n8nCoreRuntime } from '../n8n-core-runtime';
import { workflowTimezone } from '../one-node-workflow';
import type { NodeRunGuard } from '../node-run-guard';
import type { WorkflowExport } from '../workflow-file';
import { currentCallSignal } from './call-signal';
import { resolveSubWorkflow } from './resolve-sub-workflow';
import { subWorkflowOutput } from './sub-workflow-output';
import { findSubWorkflowStart, subWorkflowPart } from './sub-workflow-part';
import type { WorkflowLibrary } from './workflow-library';

/** How deep workflows may call workflows (a workflow that calls itself stops here). */
export const SUB_WORKFLOW_DEPTH_LIMIT = 10;

/** What the host lends every sub-workflow run: node types, credentials, the workflow library. */
export interface SubWorkflowHost {
	nodeTypes: INodeTypes;
	credentialsHelper: ICredentialsHelper;
	workflows: WorkflowLibrary;
}

/** Everything a run's sub-workflow calls share, and where in the chain of workflows it is. */
export interface SubWorkflowScope {
	host: SubWorkflowHost;
	/** The workflow whose nodes make the calls. */
	caller: WorkflowExport;
	/** Stands around each sub-workflow run (the session's network guard). */
	guard?: NodeRunGuard;
	/**
	 * The outer run's cancel signal: it cancels every sub-workflow run below it (so does the
	 * signal of the tool call running, see `withCallSignal`).
	 */
	signal?: AbortSignal;
	/** Workflow names from the outermost one, the caller last. */
	path: string[];
	/**
	 * One per call from the outermost workflow, shared by every level below it: the depth error,
	 * so that outer levels pass it on instead of wrapping it (absent at the outermost level).
	 */
	chain?: { stopped?: SubWorkflowError };
}

/**
 * What sub-workflow calls made by nodes of `caller` share: the host's node types, credentials
 * and workflow library, the run's guard and cancel signal. Every n8n context the host builds
 * for `caller` (node runs, supplied tools) passes one to `createAdditionalData`.
 */
export function subWorkflowScope(
	host: SubWorkflowHost,
	caller: WorkflowExport,
	options: Pick<SubWorkflowScope, 'guard' | 'signal'> = {},
): SubWorkflowScope {
	return {
		host,
		caller,
		guard: options.guard,
		signal: options.signal,
		path: [caller.name ?? caller.id ?? 'workflow'],
	};
}

/** Builds the `additionalData` of a sub-workflow run (the host's own builder, passed in). */
export type AdditionalDataFactory = (options: {
	workflowData: IWorkflowBase;
	mode: 'integrated';
	subWorkflows: SubWorkflowScope;
}) => IWorkflowExecuteAdditionalData;

/**
 * n8n's `additionalData.executeWorkflow` for the standalone host — what the Call n8n Workflow
 * Tool and the Execute Workflow node call. The sub-workflow (resolved by `resolveSubWorkflow`)
 * runs whole, in-process, on n8n-core's `WorkflowExecute` in n8n's `integrated` mode, from its
 * Execute Workflow Trigger with the caller's items; its last node's output is the result (all
 * runs merged per branch unless the caller or an Execute Workflow Trigger before 1.2 asks for
 * the last run only), as n8n's server does. Credentials come from the same helper, the guard
 * stands around each run, the signal cancels it; sub-workflows of sub-workflows get the same.
 *
 * The hook throws (n8n's contract): SubWorkflowError — SUB_WORKFLOW_NOT_FOUND,
 * SUB_WORKFLOW_NO_TRIGGER, SUB_WORKFLOW_FAILED (naming the sub-workflow and node),
 * SUB_WORKFLOW_DEPTH past {@link SUB_WORKFLOW_DEPTH_LIMIT}, SUB_WORKFLOW_WAITING for a run that
 * stops to wait.
 */
export function subWorkflowExecutor(
	scope: SubWorkflowScope,
	createAdditionalData: AdditionalDataFactory,
): IWorkflowExecuteAdditionalData['executeWorkflow'] {
	return async (info, _callerData, options) => {
		const { workflow: target, source } = resolveSubWorkflow(info, {
			caller: scope.caller,
			callerId: options.parentWorkflowId,
			callerSettings: options.parentWorkflowSettings,
			node: options.node,
			library: scope.host.workflows,
		});
		const name =
			target.name ??
			(source === 'inline'
				? `workflow JSON of node ${options.node?.name ?? ''}`.trim()
				: source === 'library'
					? (target.id ?? 'unnamed workflow')
					: 'this workflow');
		if (source === 'self-by-trigger') {
			scope.host.workflows.notice(
				`${options.node ? `Node "${options.node.name}"` : 'A node'} calls workflow "${info.id}", which is not among the given workflows: running this workflow's own Execute Workflow Trigger instead (templates from n8n.io keep their author's workflow id). Pass the sub-workflow's export with --workflows DIR if it is another workflow.`,
			);
		}
		const path = [...scope.path, name];
		const chain = scope.chain ?? {};
		if (path.length - 1 > SUB_WORKFLOW_DEPTH_LIMIT) {
			chain.stopped ??= new SubWorkflowError(
				'depth',
				`Sub-workflow "${name}" was not run: workflows calling workflows would go deeper than ${SUB_WORKFLOW_DEPTH_LIMIT} levels (${describePath(path)}). Does a workflow call itself? Give it a condition that ends the recursion.`,
				{ workflowName: name, path },
			);
			throw chain.stopped;
		}
		const runId = target.id ?? (source === 'library' ? name : options.parentWorkflowId);
		const signals = [scope.signal, currentCallSignal()].filter((signal) => signal !== undefined);
		const run = () =>
			runSubWorkflow({ ...target, id: runId, name }, options, {
				...scope,
				caller: target,
				path,
				chain,
				signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
			});
		if (!scope.guard) return await run();
		return await guarded(scope, { ...target, name }, options, run);
	};

	async function runSubWorkflow(
		target: WorkflowExport & { id: string; name: string },
		options: ExecuteWorkflowOptions,
		inner: SubWorkflowScope,
	): Promise<ExecuteWorkflowData> {
		const start = findSubWorkflowStart(target, target.name);
		// Copies: n8n's Workflow writes parameter defaults into the nodes it gets.
		const part = structuredClone(subWorkflowPart(target, start));
		const settings = { ...part.settings, timezone: workflowTimezone(part.settings?.timezone) };
		const workflow = new Workflow({
			id: target.id,
			name: target.name,
			nodes: part.nodes,
			connections: part.connections,
			active: false,
			nodeTypes: inner.host.nodeTypes,
			staticData: part.staticData,
			settings,
		});
		const additionalData = createAdditionalData({
			workflowData: workflowBase(part, target, settings),
			mode: 'integrated',
			subWorkflows: inner,
		});
		additionalData.parentCallbackManager = options.parentCallbackManager;
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{
						node: workflow.getNode(start.name)!,
						data: { main: [options.inputData ?? [{ json: {} }]] },
						metadata: { parentExecution: options.parentExecution },
						source: null,
					},
				],
			},
			parentExecution: options.parentExecution,
		});
		const execution = new (n8nCoreRuntime().WorkflowExecute)(
			additionalData,
			'integrated',
			runExecutionData,
		).processRunExecutionData(workflow);
		const onAbort = () => execution.cancel();
		inner.signal?.addEventListener('abort', onAbort, { once: true });
		let result: IRun;
		try {
			if (inner.signal?.aborted) execution.cancel();
			result = await execution;
		} finally {
			inner.signal?.removeEventListener('abort', onAbort);
		}
		if (inner.chain?.stopped) throw inner.chain.stopped;
		const executionId = additionalData.executionId ?? '';
		const { error, lastNodeExecuted } = result.data.resultData;
		if (result.status === 'canceled') {
			throw new SubWorkflowError('failed', `Sub-workflow "${target.name}" was cancelled.`, {
				workflowName: target.name,
				path: inner.path,
			});
		}
		if (error) {
			const nodeName =
				('node' in error ? error.node?.name : undefined) ?? lastNodeExecuted ?? start.name;
			throw new SubWorkflowError(
				'failed',
				`Sub-workflow "${target.name}" failed at node "${nodeName}": ${error.message}`,
				{ workflowName: target.name, nodeName, path: inner.path, cause: error },
			);
		}
		if (result.waitTill || result.status === 'waiting') {
			throw new SubWorkflowError(
				'waiting',
				`Sub-workflow "${target.name}" stopped to wait at node "${lastNodeExecuted}" (a Wait node, a form or a human review). The standalone host cannot resume a waiting execution.`,
				{ workflowName: target.name, nodeName: lastNodeExecuted, path: inner.path },
			);
		}
		if (options.doNotWaitToFinish) return { executionId, data: [null] };
		return {
			executionId,
			data: subWorkflowOutput(result, part, options.returnLastRunOnly ?? false),
		};
	}
}

/** Runs `run` inside the scope's guard; a refusal the guard answers with becomes the call's error. */
async function guarded(
	scope: SubWorkflowScope,
	target: WorkflowExport & { name: string },
	options: ExecuteWorkflowOptions,
	run: () => Promise<ExecuteWorkflowData>,
): Promise<ExecuteWorkflowData> {
	let outcome: ExecuteWorkflowData | undefined;
	let failure: unknown;
	const { name } = target;
	const node = options.node ?? findSubWorkflowStart(target, name);
	const answer = await scope.guard!(
		{ workflow: scope.caller, node, subWorkflow: target },
		async () => {
			try {
				outcome = await run();
			} catch (error) {
				failure = error;
			}
			return { items: [] };
		},
	);
	if (answer.error) {
		throw new SubWorkflowError('failed', `Sub-workflow "${name}": ${answer.error.message}`, {
			workflowName: name,
			path: [...scope.path, name],
		});
	}
	if (failure !== undefined) throw failure;
	return outcome!;
}

/** A chain of workflow names with repeats folded: `Main › Calls itself (×11)`. */
function describePath(path: string[]): string {
	const parts: Array<{ name: string; times: number }> = [];
	for (const name of path) {
		const last = parts.at(-1);
		if (last?.name === name) last.times++;
		else parts.push({ name, times: 1 });
	}
	return parts.map(({ name, times }) => (times > 1 ? `${name} (×${times})` : name)).join(' › ');
}

function workflowBase(
	part: WorkflowExport,
	target: { id: string; name: string },
	settings: WorkflowExport['settings'],
): IWorkflowBase {
	return {
		id: target.id,
		name: target.name,
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: part.nodes,
		connections: part.connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	};
}
