import { randomUUID } from 'node:crypto';
import type {
	ICredentialsHelper,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { UnsupportedNodeError } from '../../errors/unsupported-node-error';
import { n8nCoreRuntime } from './n8n-core-runtime';
import {
	inProcessRunnerStatus,
	startInProcessRunnerTask,
} from './task-runner/in-process-task-runner';

/** Base URL placeholders: n8n-core builds webhook/form URLs from them ("Invalid URL" without). */
const LOCAL_BASE_URL = 'http://localhost:5678/';

/**
 * The `additionalData` n8n-core's `WorkflowExecute` needs, for one execution, with what the
 * standalone host can give: the credentials helper, lifecycle hooks, placeholder URLs, and
 * JavaScript Code (the Code node, n8n's Code Tool) through n8n's task runner code in-process.
 * Sub-workflows are not available and fail with a message saying so.
 */
export function createAdditionalData(options: {
	credentialsHelper: ICredentialsHelper;
	workflowData: IWorkflowBase;
	nodeName: string;
}): IWorkflowExecuteAdditionalData {
	const executionId = randomUUID();
	const unavailable = (what: string) => async (): Promise<never> => {
		throw new UnsupportedNodeError(
			options.nodeName,
			`Node "${options.nodeName}" needs ${what}, which the standalone tool host does not provide.`,
		);
	};
	const additionalData = {
		credentialsHelper: options.credentialsHelper,
		hooks: new (n8nCoreRuntime().ExecutionLifecycleHooks)(
			'manual',
			executionId,
			options.workflowData,
		),
		executionId,
		workflowId: options.workflowData.id,
		executeWorkflow: unavailable('a sub-workflow execution (n8n server)'),
		startRunnerTask: startInProcessRunnerTask,
		getRunnerStatus: inProcessRunnerStatus,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
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
