import { argumentChecks } from '../errors/invalid-argument-error';
import { FromAIError } from '../errors/from-ai-error';
import { findCallSites } from './find-call-sites';
import type { FromAIMarker } from './from-ai-marker';
import { skipWhitespace } from './javascript-lexing';
import { parseFromAIArguments } from './parse-from-ai-arguments';
import { splitExpressionSegments } from './split-expression-segments';

/**
 * Cheap pre-check: no spelling of `$fromAI` in `value[from, to)` means no marker and no
 * error. Faster than a case-insensitive regex on values full of `$json`.
 */
function mentionsFromAI(value: string, from: number, to: number): boolean {
	let dollar = value.indexOf('$', from);
	while (dollar !== -1 && dollar + 7 <= to) {
		// "fromai" compared case-insensitively (| 32 lowercases ASCII letters).
		if (
			(value.charCodeAt(dollar + 1) | 32) === 102 &&
			(value.charCodeAt(dollar + 2) | 32) === 114 &&
			(value.charCodeAt(dollar + 3) | 32) === 111 &&
			(value.charCodeAt(dollar + 4) | 32) === 109 &&
			(value.charCodeAt(dollar + 5) | 32) === 97 &&
			(value.charCodeAt(dollar + 6) | 32) === 105
		) {
			return true;
		}
		dollar = value.indexOf('$', dollar + 1);
	}
	return false;
}

/** Markers and every problem found in one value (internal: `findFromAICalls` throws the first). */
export interface ValueScan {
	markers: FromAIMarker[];
	errors: FromAIError[];
}

/**
 * Scans one value and collects every problem instead of stopping at the first.
 * Used by the parameter walk; {@link findFromAICalls} is the throwing variant.
 */
export function scanFromAICalls(value: string): ValueScan {
	const markers: FromAIMarker[] = [];
	const errors: FromAIError[] = [];
	if (!mentionsFromAI(value, 0, value.length)) return { markers, errors };
	for (const segment of splitExpressionSegments(value)) {
		if (!mentionsFromAI(value, segment.codeStart, segment.codeEnd)) continue;
		const calls = findCallSites(value, segment.codeStart, segment.codeEnd, errors);
		for (const call of calls) {
			try {
				const parsed = parseFromAIArguments(value, call.start, call.openParen, call.closeParen);
				const end = call.closeParen + 1;
				const wholeSegment =
					skipWhitespace(value, segment.codeStart, call.start) === call.start &&
					skipWhitespace(value, end, segment.codeEnd) === segment.codeEnd;
				const marker: FromAIMarker = {
					key: parsed.key,
					type: parsed.type,
					start: call.start,
					end,
					segment: { start: segment.start, end: segment.end },
					wholeSegment,
					wholeValue:
						wholeSegment &&
						segment.start === 1 &&
						value.charCodeAt(0) === 61 &&
						segment.end === value.length &&
						segment.codeEnd < segment.end,
				};
				if (parsed.description !== undefined) marker.description = parsed.description;
				if (parsed.defaultValue !== undefined) marker.defaultValue = parsed.defaultValue;
				markers.push(marker);
			} catch (error) {
				if (!FromAIError.isInstance(error)) throw error;
				errors.push(error as FromAIError);
			}
		}
	}
	if (errors.length > 1) errors.sort((left, right) => (left.index ?? 0) - (right.index ?? 0));
	return { markers, errors };
}

/**
 * Finds the `$fromAI(key, description?, type?, defaultValue?)` calls in one parameter value.
 * Only code inside `{{ … }}` counts (a leading `=` is optional); strings, template text,
 * comments and regex literals in that code never yield markers.
 *
 * @throws {FromAIError} on the first problem (wrong casing such as `$FROMAI(`, an unclosed
 * call, a non-literal or invalid argument, more than four arguments); `error.index` is the
 * character position in `value`.
 */
export function findFromAICalls(value: string): FromAIMarker[] {
	argumentChecks('findFromAICalls').string(value, 'value');
	const { markers, errors } = scanFromAICalls(value);
	if (errors.length > 0) throw errors[0];
	return markers;
}
