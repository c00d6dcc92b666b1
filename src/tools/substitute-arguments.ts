import type { FromAIParameterMarker, ParameterPathSegment } from '../from-ai/from-ai-marker';
import { containsExpressionString, toExpressionLiteral } from './to-expression-literal';

/** Markers of one parameter value, prepared once per tool. */
export interface MarkedParameter {
	/** The parameter path as text, for messages. */
	path: string;
	/** Where the value is in the parameters. */
	segments: readonly ParameterPathSegment[];
	/** Markers in this value, last first (so earlier spans stay valid while replacing). */
	markers: FromAIParameterMarker[];
}

/** Groups markers by parameter path, ready for {@link substituteArguments}. */
export function groupMarkersByPath(markers: readonly FromAIParameterMarker[]): MarkedParameter[] {
	const byPath = new Map<string, MarkedParameter>();
	for (const marker of markers) {
		// JSON keeps `0` and `'0'` apart, as the segments do.
		const identity = JSON.stringify(marker.segments);
		let entry = byPath.get(identity);
		if (!entry) {
			entry = { path: marker.path, segments: marker.segments, markers: [] };
			byPath.set(identity, entry);
		}
		entry.markers.push(marker);
	}
	for (const entry of byPath.values())
		entry.markers.sort((left, right) => right.start - left.start);
	return [...byPath.values()];
}

/** The model's argument for `key`; never an inherited member (`toString`, `valueOf` …) of `args`. */
function argumentFor(args: Record<string, unknown>, key: string): unknown {
	return Object.hasOwn(args, key) ? args[key] : undefined;
}

/**
 * The value a sole `={{ $fromAI(…) }}` parameter takes: the argument itself, keeping its type.
 * A string starting with `=`, or an object holding one, would be evaluated by n8n as an
 * expression (a model could reach `$env` or other nodes' data that way); those are wrapped
 * in an expression that yields exactly the argument.
 */
function wholeValueFor(argument: unknown): unknown {
	if (!containsExpressionString(argument)) return argument;
	return `={{ ${toExpressionLiteral(argument)} }}`;
}

/**
 * Rewrites one expression string: a marker that is its segment's whole code becomes a
 * literal in place of the segment's code (objects and arrays render as JSON text, not
 * `[object Object]`); a marker inside larger code is replaced by a typed literal, so the
 * rest of the code still evaluates normally.
 */
function substituteInTemplate(
	raw: string,
	markers: readonly FromAIParameterMarker[],
	args: Record<string, unknown>,
): string {
	let result = raw;
	let limit = Number.POSITIVE_INFINITY;
	for (const marker of markers) {
		// Markers nested inside a replaced span (a `$fromAI` in another's arguments) are gone.
		if (marker.end > limit) continue;
		const argument = argumentFor(args, marker.key);
		if (marker.wholeSegment) {
			const rendered =
				typeof argument === 'object' && argument !== null ? JSON.stringify(argument) : argument;
			result = `${result.slice(0, marker.segment.start)}{{ ${toExpressionLiteral(rendered)} }}${result.slice(marker.segment.end)}`;
			limit = marker.segment.start;
		} else {
			result = `${result.slice(0, marker.start)}${toExpressionLiteral(argument)}${result.slice(marker.end)}`;
			limit = marker.start;
		}
	}
	return result;
}

/**
 * A copy of `parameters` with the model's (validated, defaulted) arguments put where the
 * `$fromAI` markers were. Only the containers on a marker's path are copied (shallowly);
 * parameters without markers are shared, not copied: n8n-core does not mutate node parameters.
 */
export function substituteArguments(
	parameters: Record<string, unknown>,
	marked: readonly MarkedParameter[],
	args: Record<string, unknown>,
): Record<string, unknown> {
	if (marked.length === 0) return parameters;
	const copy = shallowCopy(parameters);
	// The containers copied so far (made on the first nested path: most markers are top-level).
	let copied: WeakSet<object> | undefined;
	for (const entry of marked) {
		const { segments } = entry;
		let parent: Record<ParameterPathSegment, unknown> | undefined = copy;
		for (let depth = 0; depth < segments.length - 1; depth++) {
			const segment = segments[depth];
			const child: unknown = Object.hasOwn(parent, segment) ? parent[segment] : undefined;
			if (typeof child !== 'object' || child === null) {
				parent = undefined;
				break;
			}
			let next = child as Record<ParameterPathSegment, unknown>;
			copied ??= new WeakSet<object>([copy]);
			if (!copied.has(next)) {
				next = shallowCopy(next);
				copied.add(next);
				defineOwn(parent, segment, next);
			}
			parent = next;
		}
		const last = segments[segments.length - 1];
		const raw = parent && Object.hasOwn(parent, last) ? parent[last] : undefined;
		if (typeof raw !== 'string' || !parent) continue;
		const sole =
			entry.markers.length === 1 && entry.markers[0].wholeValue ? entry.markers[0] : undefined;
		defineOwn(
			parent,
			last,
			sole
				? wholeValueFor(argumentFor(args, sole.key))
				: substituteInTemplate(raw, entry.markers, args),
		);
	}
	return copy;
}

/** A shallow copy keeping own keys as own keys (an own `__proto__` stays an ordinary key). */
function shallowCopy<T extends object>(value: T): T {
	return (Array.isArray(value) ? [...value] : { ...value }) as T;
}

/**
 * Sets an own data property of a plain copy: by assignment, except `__proto__` (assignment
 * would call `Object.prototype`'s setter), which is defined.
 */
function defineOwn(
	target: Record<ParameterPathSegment, unknown>,
	key: ParameterPathSegment,
	value: unknown,
): void {
	if (key !== '__proto__') {
		target[key] = value;
		return;
	}
	Object.defineProperty(target, key, {
		value,
		writable: true,
		enumerable: true,
		configurable: true,
	});
}
