/** The value below which `fraction` of the values lie (linear between neighbours). */
export function quantile(values: number[], fraction: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	const position = (sorted.length - 1) * fraction;
	const below = Math.floor(position);
	return (
		sorted[below] +
		(sorted[Math.min(below + 1, sorted.length - 1)] - sorted[below]) * (position - below)
	);
}

/** The median of `values`. */
export function median(values: number[]): number {
	return quantile(values, 0.5);
}

/** `median (middle half low–high)` of per-round ratios, for the bench tables. */
export function ratioSummary(ratios: number[]): string {
	return `${median(ratios).toFixed(2)}× (middle half ${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)})`;
}
