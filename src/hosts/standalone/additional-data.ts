import { randomUUID } from 'node:crypto';
import type {
	ICredentialsHelper,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnsupportedNodeError } from '../../errors/unsupported-node-error';
import { n8nCoreRuntime } from './n8n-core-runtime';
import { sendNodeConsoleToListener } from './node-log-lines';
import { subWorkflowExecutor, type SubWorkflowScope } from './sub-workflows/sub-workflow-runner';
import {
	inProcessRunnerStatus,
	startInProcessRunnerTask,
} from './task-runner/in-process-task-runner';

/** Base URL placeholders: n8n-core builds webhook/form URLs from them ("Invalid URL" without). */
const LOCAL_BASE_URL = 'http://localhost:5678/';

/**
 * The `additionalData` n8n-core's `WorkflowExecute` needs, for one execution, with what the
 * standalone host can give: the credentials helper, lifecycle hooks, placeholder URLs,
 * JavaScript Code (the Code node, n8n's Code Tool) through n8n's task runner code in-process,
 * and — given `subWorkflows` — sub-workflows run in-process (`executeWorkflow`, see
 * `subWorkflowExecutor`); without it a sub-workflow call fails with a message saying so.
 */
export function createAdditionalData(options: {
	credentialsHelper: ICredentialsHelper;
	workflowData: IWorkflowBase;
	/** The node the execution is for, named in "not available" errors. */
	nodeName?: string;
	/** n8n's execution mode of the run: `manual` (default), `integrated` for a sub-workflow. */
	mode?: WorkflowExecuteMode;
	/** Where sub-workflow calls of this run resolve and run (absent: they fail). */
	subWorkflows?: SubWorkflowScope;
}): IWorkflowExecuteAdditionalData {
	const executionId = randomUUID();
	const who = options.nodeName ? `Node "${options.nodeName}"` : 'A node';
	const unavailable = (what: string) => async (): Promise<never> => {
		throw new UnsupportedNodeError(
			options.nodeName ?? '',
			`${who} needs ${what}, which the standalone tool host does not provide.`,
		);
	};
	const { subWorkflows } = options;
	const additionalData = {
		credentialsHelper: options.credentialsHelper,
		hooks: new (n8nCoreRuntime().ExecutionLifecycleHooks)(
			options.mode ?? 'manual',
			executionId,
			options.workflowData,
		),
		executionId,
		workflowId: options.workflowData.id,
		executeWorkflow: subWorkflows
			? subWorkflowExecutor(subWorkflows, (inner) =>
					createAdditionalData({
						credentialsHelper: subWorkflows.host.credentialsHelper,
						...inner,
					}),
				)
			: unavailable('a sub-workflow execution (n8n server)'),
		startRunnerTask: startInProcessRunnerTask,
		getRunnerStatus: inProcessRunnerStatus,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		// A node's console output (manual mode) goes to the running call's log listener.
		sendDataToUI: sendNodeConsoleToListener,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${LOCAL_BASE_URL}rest`,
		instanceBaseUrl: LOCAL_BASE_URL,
		formBaseUrl: `${LOCAL_BASE_URL}form`,
		formWaitingBaseUrl: `${LOCAL_BASE_URL}form-waiting`,
		formTestBaseUrl: `${LOCAL_BASE_URL}form-test`,
		webhookBaseUrl: `${LOCAL_BASE_URL}webhook`,
		webhookWaitingBaseUrl: `${LOCAL_BASE_URL}webhook-waiting`,
		webhookTestBaseUrl: `${LOCAL_BASE_URL}webhook-test`,
		mcpBaseUrl: `${LOCAL_BASE_URL}mcp`,
		mcpTestBaseUrl: `${LOCAL_BASE_URL}mcp-test`,
	};
	return additionalData as unknown as IWorkflowExecuteAdditionalData;
}
