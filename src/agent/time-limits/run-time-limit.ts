/** The reason a run's signal carries when its whole-run time limit ran out. */
export class RunTimeLimitReason extends Error {
	constructor(readonly timeoutMs: number) {
		super(`the whole run exceeded its time limit of ${timeoutMs / 1000} s`);
		this.name = 'RunTimeLimit';
	}
}

/** A signal for one run, and the function that releases its timer. */
export interface RunSignal {
	signal: AbortSignal | undefined;
	dispose: () => void;
}

/**
 * A signal that aborts when `signal` does or when `timeoutMs` has passed since `startedAt`
 * (default now; a driver that resumes a run passes the run's start, so the limit spans
 * re-entries). Its reason is a {@link RunTimeLimitReason}, which the driver reports as
 * "aborted (the whole run exceeded its time limit of N s)". `timeoutMs` ≤ 0: the signal is
 * returned as is. Call `dispose` when the run ends.
 */
export function runTimeLimitSignal(
	signal: AbortSignal | undefined,
	timeoutMs: number | undefined,
	startedAt = Date.now(),
): RunSignal {
	if (!(timeoutMs !== undefined && timeoutMs > 0)) return { signal, dispose: () => undefined };
	const controller = new AbortController();
	const onOuterAbort = () => controller.abort(signal?.reason);
	if (signal?.aborted) onOuterAbort();
	else signal?.addEventListener('abort', onOuterAbort, { once: true });
	const remaining = Math.max(0, startedAt + timeoutMs - Date.now());
	const timer = setTimeout(() => controller.abort(new RunTimeLimitReason(timeoutMs)), remaining);
	return {
		signal: controller.signal,
		dispose: () => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onOuterAbort);
		},
	};
}
