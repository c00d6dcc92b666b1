import type jsep from 'jsep';
import { FromAIError, type FromAIErrorCode } from '../errors/from-ai-error';
import { convertDefaultValue } from './convert-default-value';
import { evaluateLiteral, NotLiteral, stringLiteralOf } from './evaluate-literal';
import type { FromAIJsonValue, FromAIType } from './from-ai-marker';
import { parseArgument } from './parse-argument';
import { describeArgument, splitArguments } from './split-arguments';

/** The rule n8n checks when it builds the schema (create-node-as-tool `getSchema`). */
const KEY_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Keys n8n refuses at runtime (n8n-workflow `utils.ts` `unsafeObjectProperties`, checked by
 * `$fromAI` through `isSafeObjectProperty`): they resolve to inherited members.
 */
const RESERVED_KEYS = new Set([
	'__proto__',
	'prototype',
	'constructor',
	'getPrototypeOf',
	'setPrototypeOf',
	'getOwnPropertyDescriptor',
	'getOwnPropertyDescriptors',
	'defineProperty',
	'defineProperties',
	'mainModule',
	'binding',
	'_linkedBinding',
	'_load',
	'prepareStackTrace',
	'__lookupGetter__',
	'__lookupSetter__',
	'__defineGetter__',
	'__defineSetter__',
	'caller',
	'callee',
	'arguments',
	'getBuiltinModule',
	'dlopen',
	'execve',
	'loadEnvFile',
]);

const TYPES: readonly FromAIType[] = ['string', 'number', 'boolean', 'json'];
const MAX_ARGUMENTS = 4;

/** The arguments of one call, checked and converted. */
export interface FromAIArguments {
	key: string;
	description?: string;
	type: FromAIType;
	defaultValue?: FromAIJsonValue;
}

/**
 * Parses the arguments of the call whose parentheses are at `openParen` and `closeParen` in
 * `value`, with jsep (no eval). Errors carry `index` = position of the offending argument.
 *
 * @throws {FromAIError} when an argument breaks a rule: key (string literal matching
 * `/^[a-zA-Z0-9_-]{1,64}$/`, not reserved), description (string literal), type (literal or
 * bare identifier, one of string/number/boolean/json), default (a literal convertible to the
 * type), at most four arguments.
 */
export function parseFromAIArguments(
	value: string,
	callStart: number,
	openParen: number,
	closeParen: number,
): FromAIArguments {
	const sources = splitArguments(value, openParen + 1, closeParen);
	if (sources.length > MAX_ARGUMENTS) {
		fail(
			'FROM_AI_TOO_MANY_ARGUMENTS',
			`Found ${sources.length} arguments; allowed: at most 4 — $fromAI(key, description, type, defaultValue). n8n silently ignores the extra ones.`,
			sources[MAX_ARGUMENTS].start,
		);
	}
	if (sources.length === 0) {
		fail(
			'FROM_AI_MISSING_KEY',
			"Found $fromAI() without a key. Allowed: a key string first, e.g. $fromAI('email').",
			callStart,
		);
	}
	const [keySource, descriptionSource, typeSource, defaultSource] = sources;

	const keyNode = parseArgument(keySource);
	const key = stringLiteralOf(keyNode);
	if (key === undefined) {
		const hint =
			keyNode.type === 'Identifier' ? ` Did you mean '${String(keyNode.name)}' (quoted)?` : '';
		fail(
			'FROM_AI_KEY_NOT_LITERAL',
			`Found key ${describeArgument(keySource)}; allowed: a string literal such as 'email' (quotes required; no \${…}).${hint}`,
			keySource.start,
		);
	}
	if (!KEY_PATTERN.test(key)) {
		fail(
			'FROM_AI_INVALID_KEY',
			`Found key '${key}'; allowed: 1 to 64 characters, only letters, digits, '_' and '-'.`,
			keySource.start,
		);
	}
	if (RESERVED_KEYS.has(key)) {
		fail(
			'FROM_AI_RESERVED_KEY',
			`Found key '${key}', a reserved name that n8n refuses at runtime; choose another key (e.g. '${key.replace(/^_+/, '')}_value').`,
			keySource.start,
		);
	}

	let description: string | undefined;
	if (descriptionSource) {
		const node = parseArgument(descriptionSource);
		if (!isUndefinedIdentifier(node)) {
			description = stringLiteralOf(node);
			if (description === undefined) {
				fail(
					'FROM_AI_DESCRIPTION_NOT_LITERAL',
					`Found description ${describeArgument(descriptionSource)}; allowed: a string literal (or undefined). The model never sees computed text.`,
					descriptionSource.start,
				);
			}
		}
	}

	let type: FromAIType = 'string';
	if (typeSource) {
		const node = parseArgument(typeSource);
		if (!isUndefinedIdentifier(node)) {
			const written = node.type === 'Identifier' ? String(node.name) : stringLiteralOf(node);
			if (written === undefined) {
				fail(
					'FROM_AI_TYPE_NOT_LITERAL',
					`Found type ${describeArgument(typeSource)}; allowed: one of string, number, boolean, json (quoted or bare).`,
					typeSource.start,
				);
			}
			const lower = written.toLowerCase() as FromAIType;
			if (!TYPES.includes(lower)) {
				fail(
					'FROM_AI_INVALID_TYPE',
					`Found type '${written}'; allowed: string, number, boolean, json (any case).`,
					typeSource.start,
				);
			}
			type = lower;
		}
	}

	let defaultValue: FromAIJsonValue | undefined;
	if (defaultSource) {
		const node = parseArgument(defaultSource);
		let literal: FromAIJsonValue | undefined;
		try {
			literal = isUndefinedIdentifier(node) ? undefined : evaluateLiteral(node);
		} catch (error) {
			if (!(error instanceof NotLiteral)) throw error;
			fail(
				'FROM_AI_DEFAULT_NOT_LITERAL',
				`Found default ${describeArgument(defaultSource)} (${error.what}); allowed: a literal — string, number, boolean, null, or an object/array of literals.`,
				defaultSource.start,
			);
		}
		if (literal !== undefined) {
			const converted = convertDefaultValue(literal, type);
			if (!converted.ok)
				fail(
					'FROM_AI_INVALID_DEFAULT',
					`Found default ${describeArgument(defaultSource)} for type '${type}'; allowed: ${converted.allowed}.`,
					defaultSource.start,
				);
			defaultValue = converted.value;
		}
	}

	const result: FromAIArguments = { key, type };
	if (description !== undefined) result.description = description;
	if (defaultValue !== undefined) result.defaultValue = defaultValue;
	return result;
}

function fail(code: FromAIErrorCode, detail: string, index: number): never {
	throw new FromAIError(code, detail, { index });
}

function isUndefinedIdentifier(node: jsep.Expression): boolean {
	return node.type === 'Identifier' && node.name === 'undefined';
}
