import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { AgentResult } from '../../../agent/agent-state';
import { runAgent } from '../../../agent/run-agent';
import type { CallModel } from '../../../agent/call-model-step';
import { enterNodeAgentFrame } from './enter-node-agent-frame';
import { modelCallerOf, modelSourceNotes } from '../item-run/read-agent-node-settings';
import { openNodeItem } from './open-node-item';
import { agentOutputJson } from '../output/agent-output-json';

/** Test seam: replaces the chat client (the node itself never passes it). */
export interface RunAgentNodeItemOptions {
	callModel?: CallModel;
	/** Observer: the finished run's result (usage includes nested agents'), before it becomes the output item. */
	onResult?: (result: AgentResult) => void;
	/** Lines that open the item's debug log (with "Debug Log"), e.g. why the run is in-process. */
	debugNotes?: string[];
}

/**
 * Runs the agent for one input item of the AgentOrchestrator node with the in-process
 * driver: settings and credential, connected tools (`ai_tool`) and memory (`ai_memory`),
 * streaming through `sendChunk` when the execution streams, the `[DEBUG]` log, and memory
 * saved after a successful run. Returns the item's output. The credential's key and header
 * values are redacted from everything the run reports: the output item, the debug log, the
 * error thrown.
 *
 * @throws {AgentStoppedError} when a limit or an abort stops the run.
 * @throws {AgentConfigurationError} for bad settings.
 * @throws the chat client's errors (ApiCallError …) when the model call fails.
 */
export async function runAgentNodeItem(
	context: IExecuteFunctions,
	itemIndex: number,
	options: RunAgentNodeItemOptions = {},
): Promise<INodeExecutionData> {
	const { settings, prompt, redactor, tools, sink, memory, openStream, history, trace } =
		await openNodeItem(context, itemIndex);

	// Nested agents (called as tools in-process) report their debug lines and usage to this run.
	const frame = enterNodeAgentFrame(context, itemIndex, (line) => sink.debug(line));

	openStream();
	if (settings.debugLog)
		for (const line of [
			...(options.debugNotes ?? []),
			...modelSourceNotes(settings),
			...prompt.notes,
		])
			sink.debug(line);
	let result: AgentResult;
	try {
		const outcome = await frame
			.run(() =>
				trace.run(() =>
					runAgent({
						input: { config: settings.config, prompt: prompt.prompt, history },
						tools,
						callModel: trace.callModel(options.callModel ?? modelCallerOf(settings)),
						signal: frame.signal,
						onEvent: frame.forwardDebug(sink.onEvent),
						concurrency: settings.concurrency,
						debug: settings.debugLog,
						redactor,
						toolTimeoutMs: settings.toolTimeoutMs,
						runTimeoutMs: settings.runTimeoutMs,
						onState: frame.track,
					}),
				),
			)
			.catch((error: unknown) => {
				trace.fail(error);
				// A run that fails still spent tokens: they go to the parent agent (if any) as well.
				frame.finish();
				throw redactor.error(error);
			});
		result = { ...outcome.result, usage: frame.finish(outcome.result.usage) };
		trace.end({ usage: result.usage });
		await memory.save(outcome.state.messages.slice(outcome.state.turnStart));
	} finally {
		sink.end();
	}

	options.onResult?.(result);
	const json = redactor.value(agentOutputJson(result, settings, sink.debugLog));
	if (memory.warnings.length > 0) json.warnings = memory.warnings;
	return { json, pairedItem: { item: itemIndex } };
}
