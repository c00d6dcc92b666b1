/**
 * Runs `task` over `items` with at most `limit` running at once; results come back in
 * the order of `items`, whatever order the tasks finish in.
 */
export async function runWithConcurrency<Item, Result>(
	items: readonly Item[],
	limit: number,
	task: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
	// The common turn has one call, or no more calls than the limit: all at once.
	if (items.length <= Math.max(1, limit)) return Promise.all(items.map(task));
	const results = new Array<Result>(items.length);
	let nextIndex = 0;
	const worker = async (): Promise<void> => {
		while (nextIndex < items.length) {
			const index = nextIndex;
			nextIndex += 1;
			results[index] = await task(items[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
	return results;
}
