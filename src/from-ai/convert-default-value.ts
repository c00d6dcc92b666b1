import type { FromAIJsonValue, FromAIType } from './from-ai-marker';

/** The outcome of converting a default literal to its parameter type. */
export type DefaultConversion =
	{ ok: true; value: FromAIJsonValue } | { ok: false; allowed: string };

/**
 * Converts a `$fromAI` default literal to the parameter's type:
 * string → its string form (objects/arrays as JSON); number → a finite number (a numeric
 * string is fine, `''` is not); boolean → `true`/`false` (also as strings, any case; `1` is
 * not); json → a non-empty object or array (a JSON string is parsed) or `null`.
 */
export function convertDefaultValue(literal: FromAIJsonValue, type: FromAIType): DefaultConversion {
	switch (type) {
		case 'string':
			if (literal === null)
				return { ok: false, allowed: 'a string, number or boolean literal (null is not a string)' };
			return {
				ok: true,
				value: typeof literal === 'object' ? JSON.stringify(literal) : String(literal),
			};
		case 'number': {
			const allowed = "a finite number, or a string holding one (e.g. 5, -2.5, '10')";
			if (typeof literal === 'number')
				return Number.isFinite(literal) ? { ok: true, value: literal } : { ok: false, allowed };
			if (typeof literal === 'string' && literal.trim() !== '') {
				const number = Number(literal);
				if (Number.isFinite(number)) return { ok: true, value: number };
			}
			return { ok: false, allowed };
		}
		case 'boolean': {
			if (typeof literal === 'boolean') return { ok: true, value: literal };
			const lower = typeof literal === 'string' ? literal.toLowerCase() : undefined;
			if (lower === 'true' || lower === 'false') return { ok: true, value: lower === 'true' };
			return { ok: false, allowed: "true or false (also as a string, any case, e.g. 'TRUE')" };
		}
		case 'json': {
			const allowed = 'a non-empty object or array (or a string holding one as JSON), or null';
			let candidate: unknown = literal;
			if (typeof literal === 'string') {
				try {
					candidate = JSON.parse(literal);
				} catch {
					return { ok: false, allowed };
				}
			}
			if (candidate === null) return { ok: true, value: null };
			if (
				typeof candidate === 'object' &&
				(Array.isArray(candidate) ? candidate.length > 0 : Object.keys(candidate).length > 0)
			) {
				return { ok: true, value: candidate as FromAIJsonValue };
			}
			return { ok: false, allowed };
		}
	}
}
