/** The time limits of one agent run, in ms; 0 = no such limit. */
export interface RunTimeLimits {
	/** Per tool call (in-process): the call is stopped and the model reads a timeout observation. */
	toolTimeoutMs: number;
	/** For the whole run, from its start: the run stops as `aborted`. */
	runTimeoutMs: number;
}

/** The limits a run gets for the options it leaves out: tool 120 s, run 600 s. */
export const defaultRunTimeLimits: Readonly<RunTimeLimits> = Object.freeze({ toolTimeoutMs: 120_000, runTimeoutMs: 600_000 });

/**
 * The limits a run has: each given option, else its default. 0 (or any value that is not a
 * positive number) switches that limit off.
 */
export function resolveRunTimeLimits(options: Partial<RunTimeLimits>): RunTimeLimits {
	const pick = (given: number | undefined, fallback: number): number => {
		const value = given ?? fallback;
		return value > 0 ? value : 0;
	};
	return {
		toolTimeoutMs: pick(options.toolTimeoutMs, defaultRunTimeLimits.toolTimeoutMs),
		runTimeoutMs: pick(options.runTimeoutMs, defaultRunTimeLimits.runTimeoutMs),
	};
}
