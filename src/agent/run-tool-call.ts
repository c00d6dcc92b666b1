import type { AgentTool, ToolObservation } from '../tools/agent-tool';
import type { ToolCallResult } from './apply-tool-results';
import type { ToolCallRequest } from './next-action';
import { OutputBoundary } from './output-boundary';
import { settleOnAbort } from './time-limits/settle-on-abort';
import { toolStoppedObservation } from './time-limits/with-tool-timeout';

/** Options of {@link runToolCall}. */
export interface RunToolCallOptions {
	/** The run's signal. */
	signal?: AbortSignal;
	/** Redacts and caps the observation before it goes anywhere (default: no secrets, the default cap). */
	boundary?: OutputBoundary;
}

const defaultBoundary = new OutputBoundary();

/**
 * Runs one tool call in-process, for the loop and validator mode alike. Never throws: a
 * missing tool or a tool that throws becomes an error observation the model reads. Every
 * observation leaves through the run's {@link OutputBoundary}.
 *
 * `signal` (the run's) is raced against the tool: when it aborts, the call ends at once
 * with an error observation ("stopped"), whether or not the tool honours the signal it is
 * handed; a tool that does not is abandoned and its late result dropped. A call whose run
 * was already aborted is not started.
 */
export async function runToolCall(
	tool: AgentTool | undefined,
	call: ToolCallRequest,
	options: RunToolCallOptions = {},
): Promise<ToolCallResult> {
	const { signal } = options;
	const started = performance.now();
	let observation: ToolObservation;
	if (!tool) {
		observation = {
			content: `Tool '${call.name}' has no implementation in this run.`,
			isError: true,
		};
	} else if (signal?.aborted) {
		observation = toolStoppedObservation(call.name, signal.reason);
	} else {
		try {
			observation = await settleOnAbort(
				tool.invoke(call.arguments, { toolCallId: call.toolCallId, signal }),
				signal,
				(reason) => toolStoppedObservation(call.name, reason),
			);
		} catch (error) {
			observation = {
				content: `Tool '${call.name}' failed: ${(error as Error)?.message ?? String(error)}`,
				isError: true,
			};
		}
	}
	return {
		toolCallId: call.toolCallId,
		observation: (options.boundary ?? defaultBoundary).observation(observation),
		durationMs: performance.now() - started,
	};
}
