import type jsep from 'jsep';
import { cookStringLiteral } from './cook-string-literal';
import type { FromAIJsonValue } from './from-ai-marker';

/** Deeper defaults are refused rather than risking the stack. */
const MAX_LITERAL_DEPTH = 100;

/** Thrown by {@link evaluateLiteral}: `what` names the part that is not a literal, for the message. */
export class NotLiteral {
	constructor(readonly what: string) {}
}

/**
 * The value of a string literal or a template literal without `${}`, with JavaScript's escapes
 * (jsep only knows six, so the raw text is cooked again); otherwise undefined.
 */
export function stringLiteralOf(node: jsep.Expression): string | undefined {
	if (node.type === 'Literal' && typeof node.value === 'string') {
		if (node.cooked === true) return node.value;
		return cookStringLiteral(String(node.raw).slice(1, -1), false);
	}
	if (node.type === 'TemplateLiteral') {
		const template = node as unknown as {
			quasis: { value: { raw: string } }[];
			expressions: unknown[];
		};
		if (template.expressions.length > 0) return undefined;
		return cookStringLiteral(template.quasis[0]?.value.raw ?? '', true);
	}
	return undefined;
}

/**
 * Evaluates a literal AST (strings, numbers with an optional sign, booleans, null, arrays and
 * objects of literals) without running code. An object key `__proto__` stays a data property.
 *
 * @throws {NotLiteral} for anything else: variables, calls, operators, computed or shorthand
 *   properties, array holes, a template with `${…}`, a malformed escape, nesting deeper than 100.
 */
export function evaluateLiteral(node: jsep.Expression, depth = 0): FromAIJsonValue {
	if (depth > MAX_LITERAL_DEPTH) throw new NotLiteral(`nesting deeper than ${MAX_LITERAL_DEPTH}`);
	switch (node.type) {
		case 'Literal': {
			if (typeof node.value === 'string') {
				const cooked = stringLiteralOf(node);
				if (cooked === undefined) throw new NotLiteral('malformed escape');
				return cooked;
			}
			if (node.value === null || typeof node.value === 'number' || typeof node.value === 'boolean')
				return node.value;
			throw new NotLiteral('unsupported literal');
		}
		case 'TemplateLiteral': {
			const cooked = stringLiteralOf(node);
			if (cooked === undefined) throw new NotLiteral('a template with ${…} or a malformed escape');
			return cooked;
		}
		case 'UnaryExpression': {
			const argument = node.argument as jsep.Expression;
			if (
				(node.operator === '-' || node.operator === '+') &&
				argument.type === 'Literal' &&
				typeof argument.value === 'number'
			) {
				return node.operator === '-' ? -argument.value : argument.value;
			}
			throw new NotLiteral(`operator ${String(node.operator)}`);
		}
		case 'ArrayExpression': {
			const elements = node.elements as (jsep.Expression | null)[];
			return elements.map((element) => {
				if (element === null) throw new NotLiteral('an array hole');
				return evaluateLiteral(element, depth + 1);
			});
		}
		case 'ObjectExpression': {
			const result: { [key: string]: FromAIJsonValue } = {};
			for (const property of node.properties as jsep.Expression[]) {
				if (property.type !== 'Property' || property.computed || property.shorthand) {
					throw new NotLiteral(
						property.shorthand ? 'a shorthand property' : 'a computed or spread property',
					);
				}
				const keyNode = property.key as jsep.Expression;
				let name: string | undefined;
				if (keyNode.type === 'Identifier') name = String(keyNode.name);
				else if (keyNode.type === 'Literal')
					name =
						typeof keyNode.value === 'string' ? stringLiteralOf(keyNode) : String(keyNode.value);
				if (name === undefined) throw new NotLiteral('a non-literal property name');
				// defineProperty: a key named `__proto__` must stay data, not replace the prototype.
				Object.defineProperty(result, name, {
					value: evaluateLiteral(property.value as jsep.Expression, depth + 1),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			}
			return result;
		}
		case 'Identifier':
			throw new NotLiteral(`the variable ${String(node.name)}`);
		case 'CallExpression':
			throw new NotLiteral('a function call');
		default:
			throw new NotLiteral(`a ${node.type}`);
	}
}
