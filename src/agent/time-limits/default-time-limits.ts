import { resolveTimeLimits } from '../../chat/chat-time-limits';
import { argumentChecks } from '../../errors/invalid-argument-error';
import type { AgentTool } from '../../tools/agent-tool';
import { runTimeLimitSignal } from './run-time-limit';
import { withToolTimeout } from './with-tool-timeout';
/** The time limits of one agent run, in ms; 0 = no such limit. */
export interface RunTimeLimits {
	/** Per tool call (in-process): the call is stopped and the model reads a timeout observation. */
	toolTimeoutMs: number;
	/** For the whole run, from its start: the run stops as `aborted`. */
	runTimeoutMs: number;
}

/** The limits a run gets for the options it leaves out: tool 120 s, run 600 s. */
export const defaultRunTimeLimits: Readonly<RunTimeLimits> = Object.freeze({
	toolTimeoutMs: 120_000,
	runTimeoutMs: 600_000,
});

/**
 * The limits a run has: each given option, else its default. 0 (or any value that is not a
 * positive number) switches that limit off.
 */
export function resolveRunTimeLimits(options: Partial<RunTimeLimits>): RunTimeLimits {
	return resolveTimeLimits(
		{ toolTimeoutMs: options.toolTimeoutMs, runTimeoutMs: options.runTimeoutMs },
		defaultRunTimeLimits,
	);
}

/** What {@link withRunTimeLimits} reads from a driver's options. */
export interface TimeLimitedRunOptions extends Partial<RunTimeLimits> {
	tools: AgentTool[];
	callModel: unknown;
	signal?: AbortSignal;
}

/**
 * Runs a driver's loop (`runAgent`, `runValidator`) under its time limits: checks the
 * options, wraps each tool in the tool time limit and hands the loop a signal that also
 * aborts at the run's deadline.
 *
 * @throws {InvalidArgumentError} (INVALID_ARGUMENT) when `options` has no `tools` array or no `callModel` function.
 */
export async function withRunTimeLimits<Options extends TimeLimitedRunOptions, Result>(
	functionName: string,
	options: Options,
	loop: (options: Options) => Promise<Result>,
): Promise<Result> {
	const check = argumentChecks(functionName);
	check.array(check.object(options, 'options').tools, 'options.tools');
	if (typeof options.callModel !== 'function')
		check.fail(
			'options.callModel',
			'a function (e.g. createChatModelCaller(connection))',
			options.callModel,
		);
	const limits = resolveRunTimeLimits(options);
	const limit = runTimeLimitSignal(options.signal, limits.runTimeoutMs);
	const tools =
		limits.toolTimeoutMs > 0
			? options.tools.map((tool) => withToolTimeout(tool, limits.toolTimeoutMs))
			: options.tools;
	try {
		return await loop({ ...options, tools, signal: limit.signal });
	} finally {
		limit.dispose();
	}
}
