/** The four parameter types `$fromAI` knows (n8n's `FromAIArgumentType`). */
export type FromAIType = 'string' | 'number' | 'boolean' | 'json';

/** A JSON value as a `$fromAI` default can hold it. */
export type FromAIJsonValue =
	string | number | boolean | null | FromAIJsonValue[] | { [key: string]: FromAIJsonValue };

/** A character span in a parameter value; `end` is exclusive. */
export interface FromAISpan {
	start: number;
	end: number;
}

/**
 * One `$fromAI(key, description?, type?, defaultValue?)` call found in a parameter value.
 * The spans let a caller substitute the model's argument back into the value.
 */
export interface FromAIMarker {
	key: string;
	/** The description literal, kept even when it is `''`. Absent when not given. */
	description?: string;
	type: FromAIType;
	/** Already converted to `type` (a `json` default may be `null`). Absent when not given. */
	defaultValue?: FromAIJsonValue;
	/** Start of `$fromAI` in the value. */
	start: number;
	/** Just after the closing `)` of the call. */
	end: number;
	/** The enclosing `{{ … }}`, braces included (`end` is `value.length` when `}}` is missing). */
	segment: FromAISpan;
	/** The call alone (modulo whitespace) is the segment's code. */
	wholeSegment: boolean;
	/** The whole value is `={{ $fromAI(...) }}` (modulo whitespace inside the braces). */
	wholeValue: boolean;
}

/** One step of a parameter path: an object key or an array index. */
export type ParameterPathSegment = string | number;

/** A marker found by the parameter walk, with the path of the parameter value it is in. */
export interface FromAIParameterMarker extends FromAIMarker {
	/** The parameter path as data (`['options', 'fields', 0, 'value']`): what code reads and writes by. */
	segments: readonly ParameterPathSegment[];
	/** The same path as text (`options.fields[0].value`), for messages only; never parsed back. */
	path: string;
}
