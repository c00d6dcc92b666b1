/**
 * The two ways the loop is driven, for table-driven tests that must behave the same on
 * both: `in-process` (runAgent) and `serialized` — a step-by-step driver that turns the
 * state into JSON text and back before every step, the way n8n persists it in an
 * EngineRequest's metadata between re-entries.
 */
import type { AgentTool } from '../../src/tools/agent-tool';
import type { AgentState } from '../../src/agent/agent-state';
import { applyModelTurn } from '../../src/agent/apply-model-turn';
import { applyToolResults, type ToolCallResult } from '../../src/agent/apply-tool-results';
import { createAgentState, type AgentInput } from '../../src/agent/create-agent-state';
import { nextAction } from '../../src/agent/next-action';
import { runAgent, type AgentRunOutcome } from '../../src/agent/run-agent';
import type { CallModel } from '../../src/agent/call-model-step';
import { engineDriver } from '../hosts/n8n/engine-driver';

export interface DriverRun {
	input: Omit<AgentInput, 'tools'>;
	tools: AgentTool[];
	callModel: CallModel;
	signal?: AbortSignal;
	concurrency?: number;
	/** The whole-run time limit (in-process and engine drivers; the serialized model has none). */
	runTimeoutMs?: number;
}

export type Driver = (run: DriverRun) => Promise<AgentRunOutcome & { serializations: number }>;

export const inProcessDriver: Driver = async (run) => ({
	...(await runAgent({
		input: run.input,
		tools: run.tools,
		callModel: run.callModel,
		signal: run.signal,
		concurrency: run.concurrency,
		runTimeoutMs: run.runTimeoutMs,
	})),
	serializations: 0,
});

export const serializedDriver: Driver = async (run) => {
	// As a caller driving the state itself does: the requests are built for the caller's server.
	const config = { ...run.input.config, server: run.input.config.server ?? run.callModel.server };
	let text = JSON.stringify(createAgentState({ ...run.input, config, tools: run.tools }));
	let serializations = 1;
	for (;;) {
		const state = JSON.parse(text) as AgentState;
		const action = nextAction(state);
		let next: AgentState;
		if (action.type === 'done') return { state, result: action.result, serializations };
		if (action.type === 'failed') throw action.error;
		if (action.type === 'call-model') {
			const turn = await run.callModel(action.request, {
				signal: run.signal,
				fallbackModels: state.config.fallbackModels,
			});
			next = applyModelTurn(state, turn);
		} else {
			const results: ToolCallResult[] = [];
			// An engine runs the actions and answers them in any order; reverse to prove order does not matter.
			for (const call of [...action.calls].reverse()) {
				const tool = run.tools.find((candidate) => candidate.name === call.name);
				const started = performance.now();
				const observation = tool
					? await tool
							.invoke(call.arguments, { toolCallId: call.toolCallId })
							.catch((error: Error) => ({
								content: `Tool '${call.name}' failed: ${error.message}`,
								isError: true,
							}))
					: { content: 'missing', isError: true };
				results.push({
					toolCallId: call.toolCallId,
					observation,
					durationMs: performance.now() - started,
				});
			}
			next = applyToolResults(state, results);
		}
		text = JSON.stringify(next);
		serializations += 1;
	}
};

export const drivers: Array<[string, Driver]> = [
	['in-process', inProcessDriver],
	['serialized', serializedDriver],
	// The node's engine path, run by n8n-core's real WorkflowExecute (test/agent/engine-driver.ts).
	['engine', engineDriver],
];
