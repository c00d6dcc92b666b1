/**
 * The engine driver for the loop scenario table: the Agent Orchestrator's engine path
 * (`runAgentEngine`, what the node runs inside n8n) executed by n8n-core's real
 * WorkflowExecute. Every tool of the scenario is a node of the workflow ("test tool" type:
 * `supplyData` hands the agent the tool's name and schema, `execute` runs the tool when the
 * engine runs the node for a call, returning `{ response }` like n8n's LangChain-backed tool
 * nodes). The only seam is the model: the scenario's `callModel`.
 */
import {
	NodeConnectionTypes,
	NodeOperationError,
	type EngineResponse,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeType,
	type ISupplyDataFunctions,
} from 'n8n-workflow';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import type { AgentState } from '../../../src/agent/agent-state';
import type { AgentTool } from '../../../src/tools/agent-tool';
import type { CallModel } from '../../../src/agent/call-model-step';
import { errorOutput } from '../../../src/hosts/n8n/output/error-output';
import { runAgentEngine } from '../../../src/hosts/n8n/engine/run-agent-engine';
import { AgentStoppedError } from '../../../src/agent/agent-stopped-error';
import { ToolbridgeError } from '../../../src/errors/toolbridge-error';
import type { AgentFailureCode, AgentResult } from '../../../src/agent/agent-state';
import type { Driver, DriverRun } from '../../agent/loop-drivers';
import { fakeModelCredentials, orchestratorNode, runEngineWorkflow } from './engine-workflow';

/** A node type whose nodes are the given tools, by the node parameter `toolName`. */
export function agentToolNodeType(tools: AgentTool[]): INodeType {
	const find = (name: string): AgentTool => {
		const tool = tools.find((candidate) => candidate.name === name);
		if (!tool) throw new Error(`No test tool named ${name}`);
		return tool;
	};
	return {
		description: {
			displayName: 'Test Tool',
			name: 'agentTool',
			group: ['transform'],
			version: 1,
			description: 'Runs one of the scenario tools',
			defaults: { name: 'Test Tool' },
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
			properties: [{ displayName: 'Tool', name: 'toolName', type: 'string', default: '' }],
		},
		async supplyData(this: ISupplyDataFunctions) {
			const tool = find(this.getNodeParameter('toolName', 0) as string);
			const response = {
				name: tool.name,
				description: tool.description,
				schema: tool.parameters,
				metadata: {},
				invoke: async () => {
					throw new Error('the engine driver must not call tools in-process');
				},
			};
			return { response };
		},
		async execute(this: IExecuteFunctions) {
			const tool = find(this.getNodeParameter('toolName', 0) as string);
			const { toolCallId, ...args } = this.getInputData()[0].json;
			const observation = await tool.invoke(args, { toolCallId: String(toolCallId) });
			if (observation.isError)
				throw new NodeOperationError(this.getNode(), observation.content.replace(/^Error: /, ''));
			return [[{ json: { response: observation.content } }]];
		},
	};
}

/** The Agent Orchestrator's description with the engine path as execute, model calls to `callModel`. */
function agentNodeType(
	callModel: CallModel,
	onFinished: (state: AgentState) => void,
	onEntry: () => void,
): INodeType {
	return {
		description: new AgentOrchestrator().description,
		async execute(this: IExecuteFunctions, response?: EngineResponse) {
			onEntry();
			return await runAgentEngine(this, response, {
				callModel,
				onFinished: (_itemIndex, state) => onFinished(state),
				failItem: (error, itemIndex) => ({
					json: errorOutput(error),
					pairedItem: { item: itemIndex },
				}),
			});
		},
	} as INodeType;
}

const outputStrategies: Record<string, string> = {
	auto: 'auto',
	'response-format': 'responseFormat',
	tool: 'tool',
};

/**
 * The scenario's agent config as the node's parameters, the way a user sets them in the
 * node (n8n hands over only the options that were added). Every config field a scenario
 * uses must map here, or the engine driver would run a different agent: an unmapped field
 * throws.
 */
export function agentParameters(run: Pick<DriverRun, 'input' | 'concurrency' | 'runTimeoutMs'>) {
	const { config } = run.input;
	if (typeof run.input.prompt !== 'string')
		throw new Error('the engine driver takes string prompts');
	const mapped = new Set([
		'model',
		'systemMessage',
		'maxIterations',
		'limitBehavior',
		'repeatedCallLimit',
		'toolChoice',
		'parallelToolCalls',
		'temperature',
		'maxTokens',
		'reasoning',
		'topP',
		'topK',
		'frequencyPenalty',
		'presencePenalty',
		'seed',
		'stop',
		'providerOptions',
		'structuredOutput',
		'fallbackModels',
		'providerPreferences',
		'promptCaching',
	]);
	const unmapped = Object.keys(config).filter(
		(key) => !mapped.has(key) && config[key as keyof typeof config] !== undefined,
	);
	if (config.structuredOutput?.name !== undefined) unmapped.push('structuredOutput.name');
	if (unmapped.length > 0)
		throw new Error(`the engine driver does not map config ${unmapped.join(', ')} to node options`);
	const toolChoice = config.toolChoice;
	const provider = config.providerPreferences;
	const structured = config.structuredOutput;
	const options: Record<string, unknown> = {
		// Text answers: the run's details through "Return Intermediate Steps"; JSON answers: "Output Format" JSON.
		returnIntermediateSteps: true,
		systemMessage: config.systemMessage,
		maxIterations: config.maxIterations,
		maxIterationsBehavior:
			config.limitBehavior === 'final-answer' ? 'finalAnswer' : config.limitBehavior,
		repeatedCallLimit: config.repeatedCallLimit,
		toolChoice: typeof toolChoice === 'object' ? 'tool' : toolChoice,
		toolChoiceName: typeof toolChoice === 'object' ? toolChoice.name : undefined,
		parallelToolCalls: config.parallelToolCalls,
		temperature: config.temperature,
		maxTokens: config.maxTokens,
		reasoningEffort: config.reasoning?.effort,
		toolConcurrency: run.concurrency,
		topP: config.topP,
		topK: config.topK,
		frequencyPenalty: config.frequencyPenalty,
		presencePenalty: config.presencePenalty,
		seed: config.seed,
		stopSequences: config.stop ? JSON.stringify(config.stop) : undefined,
		providerOptions: config.providerOptions ? JSON.stringify(config.providerOptions) : undefined,
		outputFormat: structured ? 'json' : undefined,
		outputSchemaFrom: structured?.schema ? 'schema' : undefined,
		outputSchema: structured?.schema ? JSON.stringify(structured.schema) : undefined,
		outputStrategy: structured?.strategy ? outputStrategies[structured.strategy] : undefined,
		fallbackModels: config.fallbackModels?.join(', '),
		providerOrder: provider?.order?.join(', '),
		providerOnly: provider?.only?.join(', '),
		providerIgnore: provider?.ignore?.join(', '),
		providerSort: provider?.sort,
		allowFallbacks: provider?.allow_fallbacks,
		requireParameters: provider?.require_parameters,
		dataCollection: provider?.data_collection,
		maxPricePrompt: provider?.max_price?.prompt,
		maxPriceCompletion: provider?.max_price?.completion,
		promptCaching: config.promptCaching,
		runTimeout: run.runTimeoutMs === undefined ? undefined : run.runTimeoutMs / 1000,
	};
	return {
		authentication: 'openAiCompatibleApi',
		model: config.model,
		prompt: run.input.prompt,
		options: Object.fromEntries(
			Object.entries(options).filter(([, value]) => value !== undefined),
		) as IDataObject,
	};
}

const reasons: Record<string, AgentFailureCode> = {
	AGENT_MAX_ITERATIONS: 'max-iterations',
	AGENT_REPEATED_CALL: 'repeated-call',
	AGENT_ABORTED: 'aborted',
	AGENT_EMPTY_ANSWER: 'empty-answer',
	AGENT_MODEL_ERROR: 'model-error',
	AGENT_INVALID_OUTPUT: 'invalid-output',
};

export const engineDriver: Driver = async (run) => {
	let finalState: AgentState | undefined;
	let entries = 0;
	const agent = orchestratorNode('Agent', agentParameters(run) as unknown as INode['parameters']);
	const tools: INode[] = run.tools.map((tool, index) => ({
		id: `tool${index}`,
		name: tool.name,
		type: 'toolbridgeTest.agentTool',
		typeVersion: 1,
		position: [200 * index, 200],
		parameters: { toolName: tool.name },
	}));
	const { output } = await runEngineWorkflow({
		agent,
		tools,
		nodeTypes: {
			'n8n-nodes-toolbridge.agentOrchestrator': agentNodeType(
				run.callModel,
				(state) => (finalState = state),
				() => (entries += 1),
			),
			'toolbridgeTest.agentTool': agentToolNodeType(run.tools),
		},
		credentials: fakeModelCredentials('sk-engine-test', 'http://127.0.0.1:9/unused'),
	});
	const json = output[0]?.json ?? {};
	if (typeof json.error === 'string') {
		const code = String(json.code ?? '');
		if (code in reasons) {
			throw new AgentStoppedError(reasons[code], json.error, {
				steps: json.steps as AgentResult['steps'],
				usage: json.usage as AgentResult['usage'],
				iterations: json.iterations as number,
			});
		}
		throw new ToolbridgeError(code, json.error);
	}
	if (!finalState) throw new Error('the agent finished without a final state');
	// The result as read from the node's output item (not from the state), so the scenarios check what users get.
	const structured = run.input.config.structuredOutput !== undefined;
	const result: AgentResult = {
		output: structured ? JSON.stringify(json.output) : (json.output as string),
		steps: json.steps as AgentResult['steps'],
		usage: json.usage as AgentResult['usage'],
		iterations: json.iterations as number,
		reasoning: json.reasoning as string,
		stopReason: json.stopReason as AgentResult['stopReason'],
	};
	if (structured) result.object = json.output;
	for (const key of ['finishReason', 'model', 'outputAttempts'] as const) {
		if (json[key] !== undefined) (result as unknown as IDataObject)[key] = json[key];
	}
	return { state: finalState, result, serializations: entries };
};
