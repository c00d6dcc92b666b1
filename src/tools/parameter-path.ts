/**
 * One step of a parameter path as the `$fromAI` compiler writes it
 * (`options.fields[0].value`, `headers["X-Key"]`): an object key or an array index.
 */
export type PathStep = string | number;

const STEP = /\.?([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/**
 * Splits a parameter path into steps. `''` is the root.
 * @throws Error when the path is not in the compiler's format (a bug, not user input).
 */
export function parseParameterPath(path: string): PathStep[] {
	const steps: PathStep[] = [];
	STEP.lastIndex = 0;
	while (STEP.lastIndex < path.length) {
		const start = STEP.lastIndex;
		const match = STEP.exec(path);
		if (!match || match.index !== start) throw new Error(`Unreadable parameter path ${JSON.stringify(path)} at ${start}`);
		if (match[1] !== undefined) steps.push(match[1]);
		else if (match[2] !== undefined) steps.push(Number(match[2]));
		else steps.push(JSON.parse(match[3]) as string);
	}
	return steps;
}

/** The value at `steps` inside `root`, or undefined. */
export function getAtPath(root: unknown, steps: readonly PathStep[]): unknown {
	let current = root;
	for (const step of steps) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as Record<PathStep, unknown>)[step];
	}
	return current;
}

/** Sets the value at `steps` inside `root` (every container on the way must exist). */
export function setAtPath(root: unknown, steps: readonly PathStep[], value: unknown): void {
	if (steps.length === 0) throw new Error('Cannot replace the parameters root');
	const parent = getAtPath(root, steps.slice(0, -1)) as Record<PathStep, unknown>;
	parent[steps[steps.length - 1]] = value;
}
