import type { ParameterPathSegment } from '../from-ai/from-ai-marker';

/** The value at `segments` (a marker's parameter path) inside `root`, or undefined; own keys only (never an inherited member). */
export function getAtPath(root: unknown, segments: readonly ParameterPathSegment[]): unknown {
	let current = root;
	for (const segment of segments) {
		if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment))
			return undefined;
		current = (current as Record<ParameterPathSegment, unknown>)[segment];
	}
	return current;
}

/**
 * Sets the value at `segments` inside `root` (every container on the way must exist).
 * @throws Error for the empty path: the root itself cannot be replaced.
 */
export function setAtPath(
	root: unknown,
	segments: readonly ParameterPathSegment[],
	value: unknown,
): void {
	if (segments.length === 0) throw new Error('Cannot replace the parameters root');
	const parent = getAtPath(root, segments.slice(0, -1)) as Record<ParameterPathSegment, unknown>;
	parent[segments[segments.length - 1]] = value;
}
