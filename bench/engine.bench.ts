/**
 * Cost of one engine re-entry of the Agent Orchestrator, in one run:
 *
 * - cycle: the state work of a re-entry alone — the EngineRequest JSON-serialized and parsed
 *   back (what n8n does when it persists it), the metadata read, the tool results taken from
 *   the EngineResponse (ITaskData → observations), the model turn applied, the next
 *   request planned. No model call, no node runs. Measured at growing history sizes (the
 *   whole state rides in the metadata).
 * - workflow: n8n-core's WorkflowExecute running Start → Agent + one tool node, with a model
 *   that answers instantly (a prebuilt turn: no HTTP), one tool call per iteration, driver
 *   "engine" (each call a node run + a re-entry) against driver "in-process" on the same
 *   workflow. The difference per iteration is what the engine path costs.
 *
 * Prints medians; never asserts timings.
 *
 *   npm run bench:engine [-- --iterations 20 --rounds 5]
 */
import { performance } from 'node:perf_hooks';
import {
	NodeConnectionTypes,
	type EngineResponse,
	type IExecuteFunctions,
	type INode,
	type INodeType,
	type ISupplyDataFunctions,
	type ITaskData,
} from 'n8n-workflow';
import { AgentOrchestrator } from '../nodes/AgentOrchestrator/AgentOrchestrator.node';
import type { AssistantTurn } from '../src/chat/types';
import { applyModelTurn } from '../src/agent/apply-model-turn';
import { applyToolResults } from '../src/agent/apply-tool-results';
import { createAgentState } from '../src/agent/create-agent-state';
import { nextAction } from '../src/agent/next-action';
import type { CallModel } from '../src/agent/call-model-step';
import { collectActionResponses } from '../src/hosts/n8n/engine/collect-action-responses';
import type { EngineItem, EngineRunMetadata } from '../src/hosts/n8n/engine/engine-item';
import { planEngineActions } from '../src/hosts/n8n/engine/plan-engine-actions';
import { readEngineMetadata } from '../src/hosts/n8n/engine/read-engine-metadata';
import { runAgentEngine } from '../src/hosts/n8n/engine/run-agent-engine';
import { errorOutput } from '../src/hosts/n8n/output/error-output';
import { runEngineWorkflow } from '../test/hosts/n8n/engine-workflow';
import { argument } from './support/loop-fixtures';

const iterations = argument('iterations', 20);
const rounds = argument('rounds', 5);
const median = (values: number[]) =>
	[...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];

function toolTurn(index: number): AssistantTurn {
	return {
		text: '',
		reasoning: '',
		reasoningDetails: [],
		toolCalls: [
			{
				toolCallId: `call_${index}`,
				name: 'echo',
				arguments: { text: `message ${index}` },
				argumentsText: JSON.stringify({ text: `message ${index}` }),
			},
		],
		finishReason: 'tool-calls',
		rawFinishReason: 'tool_calls',
		usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 },
	} as AssistantTurn;
}
const answerTurn = {
	...toolTurn(0),
	toolCalls: [],
	text: 'done',
	finishReason: 'stop',
	rawFinishReason: 'stop',
} as AssistantTurn;

/** One re-entry's state work, with `history` tool turns already in the state. */
function cycleMicroseconds(history: number): number {
	const payload = 'x'.repeat(1000);
	let state = createAgentState({
		config: { model: 'm', maxIterations: history + 10 },
		prompt: 'go',
		tools: [
			{
				name: 'echo',
				description: 'echo',
				parameters: { type: 'object', properties: { text: { type: 'string' } } },
				sourceNodeName: 'Echo',
			},
		],
	});
	for (let index = 0; index < history; index++) {
		state = applyModelTurn(state, toolTurn(index));
		state = applyToolResults(state, [
			{
				toolCallId: `call_${index}`,
				observation: { content: payload, isError: false },
				durationMs: 1,
			},
		]);
	}
	state = applyModelTurn(state, toolTurn(history));
	const item: EngineItem = {
		itemIndex: 0,
		state,
		routes: { echo: { nodeName: 'Echo' } },
		results: [],
		actionIds: {},
		approved: [],
		debugLog: [],
	};
	const calls = (nextAction(state) as { calls: Parameters<typeof planEngineActions>[1] }).calls;
	const planned = planEngineActions(item, calls, new Set());
	item.actionIds = planned.actionIds;
	const request = {
		actions: planned.actions,
		metadata: {
			toolbridge: { version: 1, reEntries: 0, items: [item] },
		} satisfies EngineRunMetadata,
	};
	const task: ITaskData = {
		startTime: 0,
		executionTime: 1,
		executionIndex: 0,
		source: [],
		data: { ai_tool: [[{ json: { text: payload } }]] },
	};
	const repeat = 200;
	const started = performance.now();
	for (let index = 0; index < repeat; index++) {
		const persisted = JSON.parse(JSON.stringify(request)) as typeof request;
		const response: EngineResponse = {
			actionResponses: persisted.actions.map((action) => ({ action, data: task })),
			metadata: persisted.metadata,
		};
		const [resumed] = readEngineMetadata(response).items;
		collectActionResponses(resumed, response);
		let next = applyToolResults(resumed.state, resumed.results);
		next = applyModelTurn(next, toolTurn(history + 1));
		planEngineActions(
			{ ...resumed, state: next, results: [], actionIds: {} },
			(nextAction(next) as { calls: Parameters<typeof planEngineActions>[1] }).calls,
			new Set(),
		);
	}
	return ((performance.now() - started) / repeat) * 1000;
}

const echoType: INodeType = {
	description: {
		displayName: 'Echo',
		name: 'echo',
		group: ['transform'],
		version: 1,
		description: 'Echoes its text',
		defaults: { name: 'Echo' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		properties: [],
	},
	async supplyData(this: ISupplyDataFunctions) {
		return {
			response: {
				name: 'echo',
				description: 'Echoes its text',
				schema: { type: 'object', properties: { text: { type: 'string' } } },
				invoke: async (input: { text: string }) => JSON.stringify([{ text: input.text }]),
			},
		};
	},
	async execute(this: IExecuteFunctions) {
		return [[{ json: { text: this.getInputData()[0].json.text } }]];
	},
};

async function workflowMilliseconds(toolExecution: 'engine' | 'inProcess'): Promise<number> {
	let turn = 0;
	const callModel: CallModel = async () => (turn++ < iterations ? toolTurn(turn) : answerTurn);
	const real = new AgentOrchestrator();
	const agentType = {
		description: real.description,
		async execute(this: IExecuteFunctions, response?: EngineResponse) {
			if (toolExecution === 'inProcess') {
				const { runAgentNodeItem } = await import('../src/hosts/n8n/drivers/run-agent-node-item');
				return [[await runAgentNodeItem(this, 0, { callModel })]];
			}
			return await runAgentEngine(this, response, {
				callModel,
				failItem: (error) => ({ json: errorOutput(error) }),
			});
		},
	} as INodeType;
	const agent: INode = {
		id: 'agent',
		name: 'Agent',
		type: 'n8n-nodes-toolbridge.agentOrchestrator',
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			authentication: 'openAiCompatibleApi',
			model: 'm',
			prompt: 'go',
			options: { maxIterations: iterations + 5, repeatedCallLimit: 1000 },
		},
		credentials: { openAiCompatibleApi: { id: '1', name: 'Fake' } },
	};
	const tool: INode = {
		id: 'echo',
		name: 'Echo',
		type: 'bench.echo',
		typeVersion: 1,
		position: [0, 200],
		parameters: {},
	};
	const started = performance.now();
	const { output } = await runEngineWorkflow({
		agent,
		tools: [tool],
		nodeTypes: { 'n8n-nodes-toolbridge.agentOrchestrator': agentType, 'bench.echo': echoType },
		credentials: { Fake: { apiKey: 'unused', url: 'http://127.0.0.1:9' } },
	});
	const elapsed = performance.now() - started;
	if (output[0]?.json.output !== 'done')
		throw new Error(`unexpected output ${JSON.stringify(output[0]?.json)}`);
	return elapsed / iterations;
}

async function main(): Promise<void> {
	console.log(
		'Engine re-entry, state work only (serialize → EngineRequest → EngineResponse → resume → next request):',
	);
	for (const history of [0, 10, 50]) {
		const samples = Array.from({ length: rounds }, () => cycleMicroseconds(history));
		console.log(
			`  history ${String(history).padStart(2)} tool turns (~${history} KB of results): ${median(samples).toFixed(1)} µs per re-entry`,
		);
	}
	await workflowMilliseconds('engine'); // warm-up: node classes load once
	const engine: number[] = [];
	const inProcess: number[] = [];
	for (let round = 0; round < rounds; round++) {
		engine.push(await workflowMilliseconds('engine'));
		inProcess.push(await workflowMilliseconds('inProcess'));
	}
	const engineMedian = median(engine);
	const inProcessMedian = median(inProcess);
	console.log(`WorkflowExecute, ${iterations} iterations, one tool call each, instant model:`);
	console.log(
		`  engine driver:     ${engineMedian.toFixed(3)} ms per iteration (tool node run + re-entry)`,
	);
	console.log(`  in-process driver: ${inProcessMedian.toFixed(3)} ms per iteration`);
	console.log(
		`  engine − in-process: ${(engineMedian - inProcessMedian).toFixed(3)} ms per re-entry; ratio ${(engineMedian / inProcessMedian).toFixed(2)}×`,
	);
}

void main();
