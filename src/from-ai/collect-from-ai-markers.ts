import { argumentChecks } from '../errors/invalid-argument-error';
import type { FromAIError } from '../errors/from-ai-error';
import type { FromAIMarker, FromAIParameterMarker, ParameterPathSegment } from './from-ai-marker';
import { scanFromAICalls } from './find-from-ai-calls';
import { formatParameterPath } from './format-parameter-path';

/** Options of {@link collectFromAIMarkers}. */
export interface CollectFromAIMarkersOptions {
	/** Put into every error (and its message) so a CLI can say which node is wrong. */
	nodeName?: string;
}

/** Every marker and every problem of a node's parameters. */
export interface CollectedFromAIMarkers {
	markers: FromAIParameterMarker[];
	errors: FromAIError[];
}

/**
 * Walks a node's parameters (nested objects, arrays, fixedCollections, resource locators
 * `{ __rl, value }`) and collects the `$fromAI` markers of every expression — a string that
 * starts with `=`; other strings are literal. Each marker carries its parameter path as
 * `segments` (and as text in `path`, for messages). Does not stop at the first problem: every
 * error is returned, with `path` (`options.fields[0].value`) and `nodeName` set.
 *
 * @returns markers in parameter order and all errors; never throws a FromAIError.
 */
export function collectFromAIMarkers(
	parameters: unknown,
	options: CollectFromAIMarkersOptions = {},
): CollectedFromAIMarkers {
	const check = argumentChecks('collectFromAIMarkers');
	check.optionalObject(options, 'options');
	check.optionalString(options.nodeName, 'options.nodeName');
	const walker = new ParameterWalker(options.nodeName);
	walker.walk(parameters, 0);
	return walker.result;
}

/** Parameters are plain JSON; deeper than this can only be a cycle from a caller's bug. */
const MAX_DEPTH = 200;

class ParameterWalker {
	readonly result: CollectedFromAIMarkers = { markers: [], errors: [] };
	/** Path segments of the value being walked; copied and formatted only when something is found. */
	private readonly path: (string | number)[] = [];

	constructor(private readonly nodeName: string | undefined) {}

	walk(value: unknown, depth: number): void {
		if (typeof value === 'string') {
			if (value.charCodeAt(0) === 61) this.scan(value);
			return;
		}
		if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
		const path = this.path;
		if (Array.isArray(value)) {
			for (let index = 0; index < value.length; index++) {
				path.push(index);
				this.walk(value[index], depth + 1);
				path.pop();
			}
			return;
		}
		for (const key in value) {
			if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
			path.push(key);
			this.walk((value as Record<string, unknown>)[key], depth + 1);
			path.pop();
		}
	}

	private scan(value: string): void {
		const scan = scanFromAICalls(value);
		if (scan.markers.length === 0 && scan.errors.length === 0) return;
		// One copy of the segments per value, shared by its markers (read-only).
		const segments = [...this.path];
		const path = formatParameterPath(segments);
		for (const marker of scan.markers)
			this.result.markers.push(locateMarker(marker, segments, path));
		for (const error of scan.errors)
			this.result.errors.push(error.locate({ path, nodeName: this.nodeName }));
	}
}

/**
 * The marker with its path. Built field by field: an object spread here (`{ ...marker, … }`)
 * made the whole scan about 40% slower (bench:scan).
 */
function locateMarker(
	marker: FromAIMarker,
	segments: readonly ParameterPathSegment[],
	path: string,
): FromAIParameterMarker {
	const located: FromAIParameterMarker = {
		key: marker.key,
		type: marker.type,
		start: marker.start,
		end: marker.end,
		segment: marker.segment,
		wholeSegment: marker.wholeSegment,
		wholeValue: marker.wholeValue,
		segments,
		path,
	};
	if (marker.description !== undefined) located.description = marker.description;
	if (marker.defaultValue !== undefined) located.defaultValue = marker.defaultValue;
	return located;
}
