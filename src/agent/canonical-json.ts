/**
 * JSON text with object keys sorted at every depth, so two argument objects that differ
 * only in key order give the same text. Arrays keep their order. Built without recursion:
 * tool-call arguments come from the model, and arguments nested tens of thousands deep must
 * not overflow the stack (they are an observation for the model, not a crash).
 */
export function canonicalJson(value: unknown): string {
	const out: string[] = [];
	// Work items, last first: a value to write, or text to write as is.
	const work: Array<{ value: unknown } | string> = [{ value }];
	while (work.length > 0) {
		const item = work.pop()!;
		if (typeof item === 'string') {
			out.push(item);
			continue;
		}
		const current = item.value;
		if (Array.isArray(current)) {
			work.push(']');
			for (let index = current.length - 1; index >= 0; index--) {
				// As JSON.stringify: a hole, undefined or a function in an array is null.
				work.push({
					value:
						current[index] === undefined || typeof current[index] === 'function'
							? null
							: current[index],
				});
				if (index > 0) work.push(',');
			}
			work.push('[');
		} else if (current !== null && typeof current === 'object') {
			const record = current as Record<string, unknown>;
			const keys = Object.keys(record)
				.filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
				.sort();
			work.push('}');
			for (let index = keys.length - 1; index >= 0; index--) {
				work.push({ value: record[keys[index]] }, `${JSON.stringify(keys[index])}:`);
				if (index > 0) work.push(',');
			}
			work.push('{');
		} else {
			out.push(JSON.stringify(current) ?? 'null');
		}
	}
	return out.join('');
}
