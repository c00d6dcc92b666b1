import { FromAIError } from '../errors/from-ai-error';
import { isWhitespace, skipTrivia } from './javascript-lexing';

/** The spellings n8n defines at runtime (workflow-data-proxy: `$fromAI`, `$fromai`, `$fromAi`). */
const RUNTIME_SPELLINGS = new Set(['$fromAI', '$fromai', '$fromAi']);

const enum Char {
	OpenParen = 40,
	Comma = 44,
	Colon = 58,
	OpenBrace = 123,
}

/**
 * Reads a global identifier `value[start, end)` spelled `$fromai` in any case (the lexer has
 * already ruled out a member such as `x.$fromAI`): a direct call with a spelling n8n defines
 * is a call site; a call with another casing (`$FROMAI(`), or a reference that is not called
 * and is no object key, is a problem pushed to `errors`.
 *
 * @returns the position of the call's `(` (comments and whitespace may precede it), or -1
 *   when this is not a call site.
 */
export function readFromAIReference(
	value: string,
	start: number,
	end: number,
	codeStart: number,
	codeEnd: number,
	errors: FromAIError[],
): number {
	const name = value.slice(start, end);
	const after = skipTrivia(value, end, codeEnd);
	const calledHere = after < codeEnd && value.charCodeAt(after) === Char.OpenParen;
	if (!RUNTIME_SPELLINGS.has(name)) {
		if (calledHere) {
			errors.push(
				new FromAIError(
					'FROM_AI_WRONG_CASE',
					`Found '${name}(', which does not exist when n8n runs the node (it would return undefined). Allowed spellings: $fromAI, $fromai, $fromAi. Did you mean '$fromAI('?`,
					{ index: start },
				),
			);
		}
		return -1;
	}
	if (calledHere) return after;
	if (!isObjectKey(value, start, after, codeStart, codeEnd)) {
		errors.push(
			new FromAIError(
				'FROM_AI_NOT_CALLED',
				`Found '${name}' without a direct call. Allowed: a direct call such as ${name}('key', 'description', 'string') so the parameter can be found before the node runs.`,
				{ index: start },
			),
		);
	}
	return -1;
}

/** `{ $fromAI: 1 }` or `{ a, $fromAI: 1 }`: a property name, not a reference. */
function isObjectKey(
	value: string,
	start: number,
	after: number,
	codeStart: number,
	codeEnd: number,
): boolean {
	if (after >= codeEnd || value.charCodeAt(after) !== Char.Colon) return false;
	let before = start - 1;
	while (before >= codeStart && isWhitespace(value.charCodeAt(before))) before--;
	if (before < codeStart) return false;
	const code = value.charCodeAt(before);
	return code === Char.OpenBrace || code === Char.Comma;
}
