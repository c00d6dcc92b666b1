import type { ErrorObject } from 'ajv';
import type { JsonSchema } from './json-schema';

/** One way a value breaks a JSON Schema: where, what was expected, what came. */
export interface SchemaProblem {
	/** A path such as `count`, `address.city` or `tags[2]`; `(arguments)` for the whole value. */
	field: string;
	/** What the schema allows there, e.g. `a string`, `one of "a", "b"`, `at least 2 items`. */
	expected: string;
	/** What the value holds there, e.g. `the number 42`, `nothing`. */
	received: string;
}

/** One line per problem, e.g. `"count": expected a number, received the string "5"`. */
export function describeSchemaProblem(problem: SchemaProblem): string {
	return `"${problem.field}": expected ${problem.expected}, received ${problem.received}`;
}

const ROOT_FIELD = '(arguments)';

/** An ajv error; for a failed anyOf/oneOf, with the errors its branches produced. */
interface ErrorNode {
	error: ErrorObject;
	branches?: ErrorNode[];
}

/** What a translation needs besides the errors: the value checked and the schema ajv compiled. */
interface Checked {
	value: unknown;
	root: JsonSchema | boolean;
}

/**
 * Turns ajv's errors (compiled with `allErrors` and `verbose`) into field / expected /
 * received problems, sorted in the order of the value's own keys. A failed anyOf/oneOf whose
 * branches admit the value's type only once reports that branch's problems (so `anyOf:
 * [Address, null]` says which address field is wrong); otherwise it is one problem listing
 * the branches. A type mismatch hides the other keywords of the same subschema.
 *
 * @param root the schema the errors were compiled from (their `schema`/`parentSchema` point into it)
 */
export function schemaProblemsFromErrors(
	errors: readonly ErrorObject[],
	value: unknown,
	root: JsonSchema | boolean,
): SchemaProblem[] {
	const checked: Checked = { value, root };
	const keyed = problemsOf(groupBranches(errors), checked);
	keyed.sort((left, right) => compareKeys(left.key, right.key));
	const seen = new Set<string>();
	const problems: SchemaProblem[] = [];
	for (const { problem } of keyed) {
		const line = describeSchemaProblem(problem);
		if (seen.has(line)) continue;
		seen.add(line);
		problems.push(problem);
	}
	return problems;
}

/*
 * ajv pushes a branch's errors before the anyOf/oneOf error that sums them up, and their
 * `schemaPath` does not always show the branch (inside a `$ref` it starts at the target).
 * So a combinator takes the run of errors just before it that lie at or under its data
 * path, stopping at an error of a sibling keyword (same spot, same subschema).
 */
function groupBranches(errors: readonly ErrorObject[]): ErrorNode[] {
	const nodes: ErrorNode[] = [];
	for (const error of errors) {
		if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') {
			nodes.push({ error });
			continue;
		}
		const branches: ErrorNode[] = [];
		for (let last = nodes.at(-1); last !== undefined; last = nodes.at(-1)) {
			if (!isAtOrUnder(last.error.instancePath, error.instancePath)) break;
			if (
				last.error.instancePath === error.instancePath &&
				last.error.parentSchema === error.parentSchema
			)
				break;
			branches.unshift(nodes.pop()!);
		}
		nodes.push({ error, branches });
	}
	return nodes;
}

interface KeyedProblem {
	problem: SchemaProblem;
	key: number[];
}

function problemsOf(nodes: readonly ErrorNode[], checked: Checked): KeyedProblem[] {
	const typeFailures = nodes
		.filter((node) => node.error.keyword === 'type')
		.map((node) => node.error);
	const hidden = (error: ErrorObject): boolean =>
		error.keyword !== 'type' &&
		typeFailures.some(
			(failure) =>
				failure.instancePath === error.instancePath && failure.parentSchema === error.parentSchema,
		);
	return nodes.flatMap((node) => {
		if (hidden(node.error)) return [];
		if (node.branches) return branchProblems(node.error, node.branches, checked);
		const problem = problemOf(node.error, checked);
		return problem ? [problem] : [];
	});
}

function branchProblems(
	error: ErrorObject,
	children: readonly ErrorNode[],
	checked: Checked,
): KeyedProblem[] {
	const data: unknown = error.data;
	const branches = (Array.isArray(error.schema) ? (error.schema as unknown[]) : []).map((branch) =>
		resolved(branch, checked.root),
	);
	const choices = branches.map((branch) => expectedOf(branch, checked.root)).join(' or ');
	const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
	if (Array.isArray(passing)) {
		return [
			keyedAt(
				error.instancePath,
				checked,
				`exactly one of ${choices}`,
				`${describeValue(data)}, which fits ${passing.length} of them`,
			),
		];
	}
	const fitting = branches.filter((branch) => admitsTypeOf(branch, data));
	if (fitting.length !== 1)
		return [keyedAt(error.instancePath, checked, choices, describeValue(data))];
	// Only one branch takes this kind of value: what is wrong is what is wrong inside it.
	const others = branches.filter((branch) => branch !== fitting[0]);
	const inside = children.filter(
		(child) =>
			child.error.instancePath !== error.instancePath ||
			!others.includes(child.error.parentSchema as JsonSchema),
	);
	const problems = problemsOf(inside, checked);
	return problems.length > 0
		? problems
		: [keyedAt(error.instancePath, checked, choices, describeValue(data))];
}

function problemOf(error: ErrorObject, checked: Checked): KeyedProblem | undefined {
	const params = error.params as Record<string, unknown>;
	const parent = (
		typeof error.parentSchema === 'object' && error.parentSchema !== null ? error.parentSchema : {}
	) as JsonSchema;
	const data: unknown = error.data;
	const at = (expected: string, received: string): KeyedProblem =>
		keyedAt(error.instancePath, checked, expected, received);
	const property = (key: unknown): string => `${error.instancePath}/${escapePointer(String(key))}`;
	switch (error.keyword) {
		case 'type':
			return at(expectedOf(parent, checked.root), describeValue(data));
		case 'required':
			return keyedAt(
				property(params.missingProperty),
				checked,
				`${expectedOf(resolved(parent.properties?.[String(params.missingProperty)], checked.root), checked.root)} (required)`,
				'nothing',
			);
		case 'dependencies':
		case 'dependentRequired': {
			const expected = expectedOf(
				resolved(parent.properties?.[String(params.missingProperty)], checked.root),
				checked.root,
			);
			return keyedAt(
				property(params.missingProperty),
				checked,
				`${expected} (required when "${String(params.property)}" is given)`,
				'nothing',
			);
		}
		case 'additionalProperties':
		case 'unevaluatedProperties': {
			const key = params.additionalProperty ?? params.unevaluatedProperty;
			const known = Object.keys(parent.properties ?? {});
			const noun = error.instancePath === '' ? 'argument' : 'property';
			const expected =
				known.length > 0
					? `no such ${noun} (known: ${known.join(', ')})`
					: `no ${noun === 'argument' ? 'arguments' : 'properties'}`;
			return keyedAt(
				property(key),
				checked,
				expected,
				describeValue(isRecord(data) ? data[String(key)] : undefined),
			);
		}
		case 'enum':
			return at(
				expectedOf({ enum: params.allowedValues as unknown[] }, checked.root),
				describeValue(data),
			);
		case 'const':
			return at(JSON.stringify(params.allowedValue), describeValue(data));
		case 'minLength':
		case 'maxLength':
			// Code points, as ajv counts them.
			return at(
				bound(error.keyword, params.limit, 'character'),
				counted(typeof data === 'string' ? [...data].length : undefined, 'character'),
			);
		case 'minItems':
		case 'maxItems':
		case 'additionalItems':
		case 'items':
			if (typeof params.limit !== 'number') break;
			return at(
				bound(error.keyword === 'minItems' ? 'min' : 'max', params.limit, 'item'),
				counted(Array.isArray(data) ? data.length : undefined, 'item'),
			);
		case 'minProperties':
		case 'maxProperties':
			return at(
				bound(error.keyword, params.limit, 'property'),
				counted(isRecord(data) ? Object.keys(data).length : undefined, 'property'),
			);
		case 'minimum':
		case 'maximum':
			return at(bound(error.keyword, params.limit), String(data));
		case 'exclusiveMinimum':
			return at(`more than ${String(params.limit)}`, String(data));
		case 'exclusiveMaximum':
			return at(`less than ${String(params.limit)}`, String(data));
		case 'multipleOf':
			return at(`a multiple of ${String(params.multipleOf)}`, String(data));
		case 'pattern':
			return at(`a string matching the pattern ${String(params.pattern)}`, describeValue(data));
		case 'format':
			return at(`a string in ${String(params.format)} format`, describeValue(data));
		case 'uniqueItems':
			return at(
				'no duplicate items',
				`${describeValue(data)} with items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} equal`,
			);
		case 'if':
			// The failed then/else branch has reported what is wrong; this error only sums it up.
			return undefined;
	}
	return at(`to pass '${error.keyword}' (${error.message ?? 'failed'})`, describeValue(data));
}

function bound(keyword: string, limit: unknown, unit?: string): string {
	const side = keyword.startsWith('min') ? 'at least' : 'at most';
	return unit === undefined
		? `${side} ${String(limit)}`
		: `${side} ${counted(Number(limit), unit)}`;
}

/** `1 item`, `3 items`, `2 properties`. */
function counted(count: number | undefined, unit: string): string {
	if (count === undefined)
		return `a wrong number of ${unit === 'property' ? 'properties' : `${unit}s`}`;
	if (count === 1) return `1 ${unit}`;
	return `${count} ${unit === 'property' ? 'properties' : `${unit}s`}`;
}

function keyedAt(
	pointer: string,
	checked: Checked,
	expected: string,
	received: string,
): KeyedProblem {
	const { field, key } = locate(pointer, checked.value);
	return { problem: { field, expected, received }, key };
}

/**
 * The field name of a JSON pointer (`address.city`, `tags[2]`) and its sort key: each step's
 * position among the value's own keys, a missing key (-1) before the present ones.
 */
function locate(pointer: string, value: unknown): { field: string; key: number[] } {
	if (pointer === '') return { field: ROOT_FIELD, key: [] };
	let node = value;
	let field = '';
	const key: number[] = [];
	for (const raw of pointer.slice(1).split('/')) {
		const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
		if (Array.isArray(node)) {
			field += `[${segment}]`;
			key.push(Number(segment));
			node = node[Number(segment)];
		} else {
			field += field === '' ? segment : `.${segment}`;
			key.push(isRecord(node) ? Object.keys(node).indexOf(segment) : -1);
			node = isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
		}
	}
	return { field, key };
}

function compareKeys(left: readonly number[], right: readonly number[]): number {
	for (let index = 0; index < Math.min(left.length, right.length); index++) {
		if (left[index] !== right[index]) return left[index] - right[index];
	}
	return left.length - right.length;
}

/** A subschema with a local `$ref` (`#/definitions/x`, `#/$defs/x`) followed; others as they are. */
function resolved(schema: unknown, root: JsonSchema | boolean, depth = 0): JsonSchema {
	if (!isRecord(schema)) return {};
	const reference = schema.$ref;
	if (typeof reference !== 'string' || !reference.startsWith('#') || depth > 20)
		return schema as JsonSchema;
	let node: unknown = root;
	for (const raw of reference.slice(1).split('/').slice(1)) {
		const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
		node = isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
	}
	return isRecord(node) ? resolved(node, root, depth + 1) : (schema as JsonSchema);
}

function expectedOf(schema: JsonSchema, root: JsonSchema | boolean): string {
	if (Array.isArray(schema.enum))
		return `one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
	if ('const' in schema) return JSON.stringify(schema.const);
	const branches = schema.anyOf ?? schema.oneOf;
	if (Array.isArray(branches) && branches.length > 0)
		return branches.map((branch) => expectedOf(resolved(branch, root), root)).join(' or ');
	const types = typesOf(schema);
	if (types.length === 0) return 'any value';
	const named = types.map((type) =>
		type === 'object' || type === 'array' || type === 'integer'
			? `an ${type}`
			: type === 'null'
				? 'null'
				: `a ${type}`,
	);
	const qualifier = schema.minProperties === 1 || schema.minItems === 1 ? ' (non-empty)' : '';
	return `${named.join(' or ')}${qualifier}`;
}

function typesOf(schema: JsonSchema): string[] {
	return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Whether a branch's `type` (if any) takes this kind of value; the rest of the branch is not looked at. */
function admitsTypeOf(schema: JsonSchema, value: unknown): boolean {
	const types = typesOf(schema);
	if (types.length === 0) return true;
	return types.some((type) => {
		switch (type) {
			case 'integer':
				return Number.isInteger(value);
			case 'number':
				return typeof value === 'number';
			case 'null':
				return value === null;
			case 'array':
				return Array.isArray(value);
			case 'object':
				return isRecord(value);
			default:
				return typeof value === type;
		}
	});
}

function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
	if (typeof value === 'string')
		return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
	if (typeof value === 'object')
		return Object.keys(value).length === 0 ? 'an empty object' : 'an object';
	return `the ${typeof value} ${String(value)}`;
}

function isAtOrUnder(pointer: string, base: string): boolean {
	return pointer === base || pointer.startsWith(`${base}/`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(segment: string): string {
	return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
