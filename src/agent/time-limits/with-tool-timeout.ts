import type { AgentTool, ToolInvokeOptions, ToolObservation } from '../../tools/agent-tool';
import { toolReviewRefusal } from '../../tools/tool-review';
import { describeAbortReason } from '../stop-agent';
import { DeadlineQueue } from './deadline-queue';
import { argumentChecks } from '../../errors/invalid-argument-error';
import { returnAbortController, takeAbortController } from '../../chat/http/abort-controller-pool';
import { onAbort } from '../../chat/http/on-abort';

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
 * observation). A tool behind a review gate (`tool.review`) is approved first: the limit
 * starts when the call runs, not while a person decides. `timeoutMs` ≤ 0 returns the tool
 * unchanged.
 * @throws {InvalidArgumentError} `INVALID_ARGUMENT` for a tool without `invoke` or a timeout that is not a number.
 */
export function withToolTimeout(tool: AgentTool, timeoutMs: number): AgentTool {
	const check = argumentChecks('withToolTimeout');
	if (typeof check.object(tool, 'tool').invoke !== 'function')
		check.fail('tool.invoke', 'a function (an AgentTool)', tool.invoke);
	if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs))
		check.fail('timeoutMs', 'a number of milliseconds (0: no limit)', timeoutMs);
	if (!(timeoutMs > 0)) return tool;
	const deadlines = deadlineQueue(timeoutMs);
	const { review } = tool;
	const timed = (
		args: Record<string, unknown>,
		options: ToolInvokeOptions,
	): Promise<ToolObservation> => {
		const outer = options.signal;
		if (outer?.aborted) return Promise.resolve(toolStoppedObservation(tool.name, outer.reason));
		// From the spare: creating a signal costs ~9 µs, a tenth of a fast node's run.
		const controller = takeAbortController();
		return new Promise<ToolObservation>((resolve, reject) => {
			let settled = false;
			const settle = (finish: () => void): void => {
				if (settled) return;
				settled = true;
				deadline.cancel();
				unsubscribe?.();
				finish();
				// Aborted controllers are never handed on; one whose call ended in time is.
				returnAbortController(controller);
			};
			const stop = (reason: unknown, observation: ToolObservation): void =>
				settle(() => {
					controller.abort(reason);
					resolve(observation);
				});
			const deadline = deadlines.add(() =>
				stop(new ToolTimeLimitReason(timeoutMs), toolTimeoutObservation(tool.name, timeoutMs)),
			);
			const unsubscribe =
				outer &&
				onAbort(outer, () => stop(outer.reason, toolStoppedObservation(tool.name, outer.reason)));
			let work: Promise<ToolObservation>;
			try {
				work = tool.invoke(args, { ...options, signal: controller.signal });
			} catch (error) {
				work = Promise.reject(error);
			}
			// After a stop the tool is abandoned: its late result (or rejection) goes nowhere.
			work.then(
				(observation) => settle(() => resolve(observation)),
				(error: unknown) => settle(() => reject(error)),
			);
		});
	};
	if (!review) return { ...tool, invoke: timed };
	return {
		...tool,
		invoke: async (args, options) => {
			if (options.reviewed) return timed(args, options);
			const decision = await review.ask(args, options.signal);
			if (!decision.approved) return toolReviewRefusal(tool.name, review, decision);
			return timed(args, { ...options, reviewed: true });
		},
	};
}

const queues = new Map<number, DeadlineQueue>();

/** The process's one deadline queue of this length (a run's tools share their time limit). */
function deadlineQueue(lengthMs: number): DeadlineQueue {
	let queue = queues.get(lengthMs);
	if (!queue) queues.set(lengthMs, (queue = new DeadlineQueue(lengthMs)));
	return queue;
}
