import type { Usage } from '../chat/types';

/** Usage with every count at zero. */
export function emptyUsage(): Usage {
	return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/** The sum of two usages; optional counts (reasoning, cache, cost) appear once either side has them. */
export function addUsage(total: Usage, turn: Usage | undefined): Usage {
	if (!turn) return total;
	const sum: Usage = {
		promptTokens: total.promptTokens + turn.promptTokens,
		completionTokens: total.completionTokens + turn.completionTokens,
		totalTokens: total.totalTokens + turn.totalTokens,
	};
	for (const key of ['reasoningTokens', 'cachedTokens', 'cacheWriteTokens', 'cost'] as const) {
		if (total[key] !== undefined || turn[key] !== undefined)
			sum[key] = (total[key] ?? 0) + (turn[key] ?? 0);
	}
	return sum;
}
