import type { WorkflowExecute } from 'n8n-core';
import {
	type IDataObject,
	type INode,
	type IRun,
	type INodeType,
	type INodeTypeDescription,
	type IVersionedNodeType,
} from 'n8n-workflow';
import { MissingCredentialError } from '../../errors/missing-credential-error';
import { UnsupportedNodeError } from '../../errors/unsupported-node-error';
import type { UnavailableTool } from '../../errors/unavailable-tools-error';
import { installCommandFor } from './node-availability';
import type { NodeRunner, NodeRunOptions, NodeRunResult } from '../../tools/node-runner';
import { createAdditionalData } from './additional-data';
import { loadCredentialRecords, type CredentialRecords } from './credential-store';
import {
	credentialHeaderValues,
	credentialProperties,
	credentialSecretValues,
} from './credential-secrets';
import { redactedRunResult } from './redacted-run-result';
import { addRunExpressionKeys } from './run-expression-keys';
import { n8nCoreRuntime } from './n8n-core-runtime';
import { loadNodePackages, type PackageLoaderOptions } from './package-loaders';
import { describeMissingCredential } from './describe-missing-credential';
import { StandaloneCredentialsHelper } from './standalone-credentials-helper';
import { StandaloneNodeTypes } from './standalone-node-types';
import { toNodeRunError } from '../../tools/to-node-run-error';
import { onAbort } from '../../chat/http/on-abort';
import { Redactor } from '../../chat/redactor';
import { trackNodeRunSockets, type NodeRunSockets } from './node-run-sockets';
import { containNodeRun } from './node-run-containment';
import type { WorkflowExport } from './workflow-file';
import { oneNodeWorkflow } from './one-node-workflow';
import type { NodeRunGuard } from './node-run-guard';
import { WorkflowLibrary, type WorkflowsSource } from './sub-workflows/workflow-library';
import { subWorkflowScope } from './sub-workflows/sub-workflow-runner';

/** Options of {@link StandaloneHost.create}. */
export interface StandaloneHostOptions extends PackageLoaderOptions {
	/** Credential records (by credential name or type); merged over file and environment. */
	credentials?: CredentialRecords;
	/** A JSON file of credential records (`--credentials`). */
	credentialsFile?: string;
	/** Environment to read `TOOLBRIDGE_CREDENTIALS(_FILE)` from. Default `process.env`. */
	env?: NodeJS.ProcessEnv;
	/**
	 * Node classes in hand, by full type name (`n8n-nodes-toolbridge.agentOrchestrator`), as
	 * factories called on first use; they win over installed packages. The CLI passes this
	 * package's own Agent Orchestrator here.
	 */
	nodeTypes?: Readonly<Record<string, () => INodeType | IVersionedNodeType>>;
	/** Workflow exports (a folder, a file or the exports) that sub-workflow calls find by `id`, then name (`--workflows`). */
	workflows?: WorkflowsSource;
	/** Told what the host had to guess, once each (a sub-workflow id resolved to the workflow's own trigger). */
	onNotice?: (message: string) => void;
}

export type { NodeRunGuard } from './node-run-guard';

/**
 * Runs n8n nodes without an n8n server: node classes from the installed packages through
 * n8n-core's loaders, executed by n8n-core's real `WorkflowExecute` on a one-node workflow,
 * credentials from plain records. Nothing is written to `~/.n8n`; `$env` stays blocked unless
 * `N8N_BLOCK_ENV_ACCESS_IN_NODE=false` (n8n's own rule).
 */
export class StandaloneHost {
	private constructor(
		readonly nodeTypes: StandaloneNodeTypes,
		readonly credentialsHelper: StandaloneCredentialsHelper,
		readonly workflows: WorkflowLibrary,
		/**
		 * Learns the secrets n8n-core writes into a credential while nodes run (an OAuth2 access
		 * token it fetched or refreshed). Every session's redactor, and every {@link runnerFor}'s,
		 * is made from it (`with`), so a token refreshed mid-run is redacted everywhere at once.
		 */
		readonly redactor: Redactor,
	) {}

	/**
	 * Loads the package index (class files load later, on first use) and the credentials;
	 * n8n-core's execution engine loads when the first node runs.
	 * @throws ToolbridgeError (CREDENTIALS_INVALID) when a credentials source is malformed.
	 * @throws WorkflowFileError when the `workflows` folder or a file in it cannot be read.
	 */
	static async create(options: StandaloneHostOptions = {}): Promise<StandaloneHost> {
		const nodeTypes = new StandaloneNodeTypes(await loadNodePackages(options), options.nodeTypes);
		const records = loadCredentialRecords({
			file: options.credentialsFile,
			records: options.credentials,
			env: options.env,
		});
		const learned = new Redactor();
		const credentials: StandaloneCredentialsHelper = new StandaloneCredentialsHelper(
			records,
			nodeTypes,
			(type, data) =>
				learned.learn(credentialSecretValues(data, credentialProperties(credentials, type))),
		);
		const workflows = WorkflowLibrary.from(options.workflows, options.onNotice);
		return new StandaloneHost(nodeTypes, credentials, workflows, learned);
	}

	/**
	 * The node type description for a node's type and version.
	 * @throws NodeTypeNotFoundError when the type is not installed or cannot be a tool.
	 */
	describe(node: INode): INodeTypeDescription {
		return this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
	}

	/**
	 * Checks that the host can run the node at all.
	 * @throws NodeTypeNotFoundError when its type is not installed.
	 * @throws UnsupportedNodeError for triggers, webhook/poll nodes, sub-nodes and Python code.
	 */
	assertRunnable(node: INode): void {
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const { description } = nodeType;
		const label = `Node "${node.name}" (${node.type})`;
		if (
			description.group.includes('trigger') ||
			nodeType.trigger ||
			nodeType.poll ||
			(nodeType.webhook && !nodeType.execute)
		) {
			throw new UnsupportedNodeError(
				node.name,
				`${label} is a trigger: it starts workflows and cannot run as a tool. Connect a node that processes data instead.`,
			);
		}
		if (!nodeType.execute && !description.requestDefaults) {
			throw new UnsupportedNodeError(
				node.name,
				`${label} has no execute method (it only supplies data to another node), so the standalone host cannot run it.`,
			);
		}
		const language = node.parameters.language;
		if (typeof language === 'string' && language.startsWith('python')) {
			throw new UnsupportedNodeError(
				node.name,
				`${label} runs Python, which needs n8n's Python task runner; the standalone host has none.`,
			);
		}
	}

	/**
	 * The one command that installs the missing packages of `tools` where this host finds them
	 * (beside its n8n-nodes-base; n8n's LangChain nodes at n8n-nodes-base's version), or
	 * undefined when no installable package is missing.
	 */
	installCommandFor(tools: readonly UnavailableTool[]): string | undefined {
		return installCommandFor(tools, this.nodeTypes);
	}

	/** The first credential the node references that was not supplied, as an error (not thrown). */
	findMissingCredential(node: INode): MissingCredentialError | undefined {
		for (const [type, details] of Object.entries(node.credentials ?? {})) {
			if (this.credentialsHelper.find(details, type)) continue;
			return new MissingCredentialError({
				credentialType: type,
				credentialName: details.name ?? '',
				nodeName: node.name,
				message: describeMissingCredential(type, details.name, node.name),
			});
		}
		return undefined;
	}

	/**
	 * The secrets this host would hand the nodes of `workflow`, for a run's redactor: the
	 * secret fields of every credential record a node references (see
	 * `credentialSecretValues`: passwords, keys, tokens; not URLs or user names) and header
	 * values named like credentials written in a node's parameters.
	 */
	secretsFor(workflow: WorkflowExport): string[] {
		const secrets: string[] = [];
		for (const node of workflow.nodes) {
			for (const [type, details] of Object.entries(node.credentials ?? {})) {
				const record = this.credentialsHelper.find(details, type);
				if (record)
					secrets.push(
						...credentialSecretValues(record, credentialProperties(this.credentialsHelper, type)),
					);
			}
			secrets.push(...credentialHeaderValues(node.parameters));
		}
		return secrets;
	}

	/**
	 * The secrets of `workflow` and of every workflow it may call (see {@link secretsFor}) in a
	 * redactor made from the host's {@link redactor}, so it also replaces tokens refreshed later.
	 */
	redactorFor(workflow: WorkflowExport): Redactor {
		return this.redactor.with([
			...this.secretsFor(workflow),
			...this.workflows.reachableFrom(workflow).flatMap((called) => this.secretsFor(called)),
		]);
	}

	/**
	 * A {@link NodeRunner} that runs nodes of `workflow` (its settings, timezone, static data),
	 * each run through `guard` when one is given. What a run returns — its items' json and its
	 * error — has the secrets this host hands the workflow's nodes redacted (see
	 * {@link redactorFor}), so a tool made on it (`createNodeAsTool`) never hands them out;
	 * `redact: false` for a caller that puts its own output boundary after the runner (a session).
	 */
	runnerFor(
		workflow: WorkflowExport,
		options: { guard?: NodeRunGuard; redact?: boolean; expressionKeys?: IDataObject } = {},
	): NodeRunner {
		const { guard, expressionKeys } = options;
		const run: NodeRunner['run'] = (node, input, runOptions) =>
			this.runNode(workflow, node, input, { ...runOptions, guard, expressionKeys });
		const guarded: NodeRunner['run'] = guard
			? (node, ...rest) => guard({ workflow, node }, () => run(node, ...rest))
			: run;
		const redactor = options.redact === false ? undefined : this.redactorFor(workflow);
		return {
			describe: (node) => this.describe(node),
			run: redactor
				? async (...args) => redactedRunResult(await guarded(...args), redactor)
				: guarded,
		};
	}

	/**
	 * Evaluates an n8n expression (`=…`) in the context of `node`, e.g. a manual
	 * `toolDescription` written as an expression. `additionalKeys` adds variables (`$` over pinned output).
	 * @throws ExpressionError from n8n-workflow when the expression is invalid.
	 */
	resolveExpression(
		workflowExport: WorkflowExport,
		node: INode,
		expression: string,
		additionalKeys: IDataObject = {},
	): unknown {
		const { workflow } = oneNodeWorkflow(node, {
			workflow: workflowExport,
			nodeTypes: this.nodeTypes,
		});
		return workflow.expression.getSimpleParameterValue(
			node,
			expression,
			'manual',
			additionalKeys,
			undefined,
			'',
		);
	}

	/**
	 * Runs one node through n8n-core's `WorkflowExecute` on a workflow holding only that node,
	 * with one input item whose json is `input` (as n8n's engine feeds a tool node: the
	 * model's arguments). Node errors come back in the result, never thrown — also an error
	 * the node's libraries throw outside its promise (a `StrayNodeError`, see
	 * `containNodeRun`). When `options.signal` aborts, the execution is cancelled the way n8n
	 * cancels one (the node's cancel signal fires, so e.g. an HTTP request stops) and the
	 * result is a cancellation error at once. Its sub-workflows share its credentials, signal
	 * and `options.guard`. The result is raw — what the node returned, secrets included: hand
	 * it on through {@link runnerFor} (which redacts) or an output boundary. `options.expressionKeys`
	 * adds variables to the expressions of its parameters (`$` over other nodes' pinned output).
	 */
	async runNode(
		workflowExport: WorkflowExport,
		node: INode,
		input: IDataObject,
		options: NodeRunOptions & { guard?: NodeRunGuard; expressionKeys?: IDataObject } = {},
	): Promise<NodeRunResult> {
		const missing = this.findMissingCredential(node);
		if (missing) return { items: [], error: toNodeRunError(missing) };
		try {
			this.assertRunnable(node);
		} catch (error) {
			return { items: [], error: toNodeRunError(error) };
		}
		const { signal } = options;
		if (signal?.aborted) return cancelledResult(node);
		const { workflow, workflowData } = oneNodeWorkflow(node, {
			workflow: workflowExport,
			nodeTypes: this.nodeTypes,
		});
		const additionalData = createAdditionalData({
			credentialsHelper: this.credentialsHelper,
			workflowData,
			nodeName: node.name,
			subWorkflows: subWorkflowScope(this, workflowExport, options),
		});
		if (options.expressionKeys) addRunExpressionKeys(additionalData, options.expressionKeys);
		let execution: ReturnType<WorkflowExecute['run']> | undefined;
		let tracked: NodeRunSockets<IRun> | undefined;
		// What the node's libraries throw outside its promise ends this run, not the process.
		const contained = containNodeRun(
			node,
			() => {
				tracked = trackNodeRunSockets(() => {
					execution = new (n8nCoreRuntime().WorkflowExecute)(additionalData, 'manual').run({
						workflow,
						startNode: workflow.getNode(node.name) ?? undefined,
						triggerToStartFrom: {
							name: node.name,
							data: {
								data: { main: [[{ json: input }]] },
								startTime: Date.now(),
								executionTime: 0,
								executionIndex: 0,
								source: [],
							},
						},
					});
					return execution;
				});
				return tracked.result;
			},
			(stray) => {
				execution?.cancel();
				tracked?.destroy(stray);
			},
			// Built only if a late error needs it: no cost on the run's path.
			(text) => this.redactorFor(workflowExport).text(text),
		);
		let unsubscribe: (() => void) | undefined;
		// n8n's cancel neither rejects nor settles the run until the node returns: answer at once.
		const settled = signal
			? new Promise<IRun | 'cancelled'>((resolve, reject) => {
					unsubscribe = onAbort(signal, () => {
						execution?.cancel();
						tracked?.destroy(new Error(`The run of node "${node.name}" was cancelled.`));
						resolve('cancelled');
					});
					contained.then(resolve, reject);
				})
			: contained;
		try {
			const run = await settled;
			if (run === 'cancelled') return cancelledResult(node);
			const task = run.data.resultData.runData[node.name]?.[0];
			const error = task?.error ?? run.data.resultData.error;
			if (error) return { items: [], error: toNodeRunError(error) };
			const outputs = Object.values(task?.data ?? {});
			return { items: outputs.flatMap((output) => output.flatMap((items) => items ?? [])) };
		} catch (error) {
			return { items: [], error: toNodeRunError(error) };
		} finally {
			unsubscribe?.();
		}
	}
}

function cancelledResult(node: INode): NodeRunResult {
	return {
		items: [],
		error: {
			name: 'ToolCallCancelledError',
			message: `The run of node "${node.name}" was cancelled.`,
		},
	};
}
