import type { AgentTool, ToolObservation } from '../../tools/agent-tool';

/** The observation the model reads when a tool ran out of time. */
export function toolTimeoutObservation(name: string, timeoutMs: number): ToolObservation {
	return {
		content: `Tool '${name}' did not finish within ${timeoutMs / 1000} s and was stopped. Try different arguments, another tool, or answer without this result.`,
		isError: true,
	};
}

/**
 * The tool with a time limit per call: after `timeoutMs` the call's signal is aborted (so
 * the tool's own work stops where it honours the signal, e.g. an HTTP request) and the
 * model gets a timeout observation instead of waiting. `timeoutMs` ≤ 0 returns the tool
 * unchanged. The caller's signal still aborts the call too.
 */
export function withToolTimeout(tool: AgentTool, timeoutMs: number): AgentTool {
	if (!(timeoutMs > 0)) return tool;
	return {
		...tool,
		invoke: async (args, options) => {
			const controller = new AbortController();
			const onOuterAbort = () => controller.abort(options.signal?.reason);
			if (options.signal?.aborted) onOuterAbort();
			else options.signal?.addEventListener('abort', onOuterAbort, { once: true });
			let timer: ReturnType<typeof setTimeout> | undefined;
			const timedOut = new Promise<ToolObservation>((resolve) => {
				timer = setTimeout(() => {
					// Settle first: a tool that rejects on abort must not win the race.
					resolve(toolTimeoutObservation(tool.name, timeoutMs));
					controller.abort(new Error(`tool timeout (${timeoutMs} ms)`));
				}, timeoutMs);
			});
			try {
				return await Promise.race([tool.invoke(args, { ...options, signal: controller.signal }), timedOut]);
			} finally {
				clearTimeout(timer);
				options.signal?.removeEventListener('abort', onOuterAbort);
			}
		},
	};
}
