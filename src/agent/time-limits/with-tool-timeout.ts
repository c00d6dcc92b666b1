import type { AgentTool, ToolObservation } from '../../tools/agent-tool';
import { describeAbortReason } from '../stop-agent';
import { settleOnAbort } from './settle-on-abort';
import { argumentChecks } from '../../errors/invalid-argument-error';

/** The observation the model reads when a tool ran out of time. */
export function toolTimeoutObservation(name: string, timeoutMs: number): ToolObservation {
	return {
		content: `Tool '${name}' did not finish within ${timeoutMs / 1000} s and was stopped. Try different arguments, another tool, or answer without this result.`,
		isError: true,
	};
}

/** The observation of a call the run stopped (`reason`: the run signal's), or never started because the run had already stopped. */
export function toolStoppedObservation(name: string, reason: unknown): ToolObservation {
	return {
		content: `Tool '${name}' was stopped before it finished: ${describeAbortReason(reason)}.`,
		isError: true,
	};
}

/** The reason a tool call's signal carries when its time limit ran out. */
class ToolTimeLimitReason extends Error {
	constructor(readonly timeoutMs: number) {
		super(`the tool call exceeded its time limit of ${timeoutMs / 1000} s`);
		this.name = 'ToolTimeLimit';
	}
}

/**
 * The tool with a time limit per call: after `timeoutMs` the call's signal is aborted (so
 * the tool's own work stops where it honours the signal, e.g. an HTTP request) and the
 * model gets a timeout observation at once; a tool that ignores the signal is abandoned, its
 * late result dropped. The caller's signal aborts the call the same way (a "stopped"
 * observation). `timeoutMs` ≤ 0 returns the tool unchanged.
 * @throws {InvalidArgumentError} `INVALID_ARGUMENT` for a tool without `invoke` or a timeout that is not a number.
 */
export function withToolTimeout(tool: AgentTool, timeoutMs: number): AgentTool {
	const check = argumentChecks('withToolTimeout');
	if (typeof check.object(tool, 'tool').invoke !== 'function')
		check.fail('tool.invoke', 'a function (an AgentTool)', tool.invoke);
	if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs))
		check.fail('timeoutMs', 'a number of milliseconds (0: no limit)', timeoutMs);
	if (!(timeoutMs > 0)) return tool;
	return {
		...tool,
		invoke: async (args, options) => {
			const controller = new AbortController();
			const onOuterAbort = () => controller.abort(options.signal?.reason);
			if (options.signal?.aborted) onOuterAbort();
			else options.signal?.addEventListener('abort', onOuterAbort, { once: true });
			const timer = setTimeout(
				() => controller.abort(new ToolTimeLimitReason(timeoutMs)),
				timeoutMs,
			);
			try {
				if (controller.signal.aborted)
					return toolStoppedObservation(tool.name, controller.signal.reason);
				return await settleOnAbort(
					tool.invoke(args, { ...options, signal: controller.signal }),
					controller.signal,
					(reason) =>
						reason instanceof ToolTimeLimitReason
							? toolTimeoutObservation(tool.name, timeoutMs)
							: toolStoppedObservation(tool.name, reason),
				);
			} finally {
				clearTimeout(timer);
				options.signal?.removeEventListener('abort', onOuterAbort);
			}
		},
	};
}
