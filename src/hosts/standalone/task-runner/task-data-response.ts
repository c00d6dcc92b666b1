import {
	createRunExecutionData,
	type EnvProviderState,
	type IExecuteData,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type IRunExecutionData,
	type ITaskDataConnections,
	type IWorkflowExecuteAdditionalData,
	type Workflow,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

/** Everything n8n-core hands `startRunnerTask` for one Code run. */
export interface RunnerTaskData {
	additionalData: IWorkflowExecuteAdditionalData;
	executeFunctions: IExecuteFunctions;
	inputData: ITaskDataConnections;
	node: INode;
	workflow: Workflow;
	runExecutionData: IRunExecutionData;
	runIndex: number;
	itemIndex: number;
	activeNodeName: string;
	connectionInputData: INodeExecutionData[];
	siblingParameters: INodeParameters;
	mode: WorkflowExecuteMode;
	envProviderState: EnvProviderState;
	executeData?: IExecuteData;
}

/**
 * The data a task runner asks for before it runs code, as the n8n server answers it (its
 * `DataRequestResponseBuilder.buildFromTaskData`): the workflow as parameters, the input, the
 * run data without the execution stack, and the `additionalData` fields code may read.
 */
export function taskDataResponse(task: RunnerTaskData): Record<string, unknown> {
	const { workflow, runExecutionData: run, additionalData } = task;
	return {
		workflow: {
			id: workflow.id,
			name: workflow.name,
			active: workflow.active,
			connections: workflow.connectionsBySourceNode,
			nodes: Object.values(workflow.nodes),
			pinData: workflow.pinData,
			settings: workflow.settings,
			staticData: workflow.staticData,
		},
		inputData: task.inputData,
		connectionInputSource: task.executeData?.source ?? null,
		itemIndex: task.itemIndex,
		activeNodeName: task.activeNodeName,
		contextNodeName: task.activeNodeName,
		defaultReturnRunIndex: -1,
		mode: task.mode,
		envProviderState: task.envProviderState,
		node: task.node,
		runExecutionData: createRunExecutionData({
			startData: run.startData,
			resultData: run.resultData,
			executionData: run.executionData
				? {
						contextData: run.executionData.contextData,
						metadata: run.executionData.metadata,
						nodeExecutionStack: [],
						waitingExecution: {},
						waitingExecutionSource: null,
					}
				: undefined,
		}),
		runIndex: task.runIndex,
		selfData: {},
		siblingParameters: task.siblingParameters,
		additionalData: {
			formWaitingBaseUrl: additionalData.formWaitingBaseUrl,
			instanceBaseUrl: additionalData.instanceBaseUrl,
			restApiUrl: additionalData.restApiUrl,
			variables: additionalData.variables,
			webhookBaseUrl: additionalData.webhookBaseUrl,
			webhookTestBaseUrl: additionalData.webhookTestBaseUrl,
			webhookWaitingBaseUrl: additionalData.webhookWaitingBaseUrl,
			currentNodeParameters: additionalData.currentNodeParameters,
			executionId: additionalData.executionId,
			executionTimeoutTimestamp: additionalData.executionTimeoutTimestamp,
			userId: additionalData.userId,
		},
	};
}
