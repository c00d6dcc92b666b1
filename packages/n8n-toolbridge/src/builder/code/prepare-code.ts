import { parse, type Node } from 'acorn';
import { WorkflowCodeError } from './workflow-code-error';

/** Code longer than this is refused before any parser sees it (the SDK's text pre-processing is super-linear). */
export const MAX_CODE_CHARS = 200_000;
/** Deeper syntax trees are refused (the SDK's interpreter recurses). */
export const MAX_CODE_DEPTH = 200;

/** The SDK's factory functions: the only functions code may call by name. */
export const SDK_FUNCTIONS: ReadonlySet<string> = new Set([
	'workflow',
	'node',
	'trigger',
	'sticky',
	'placeholder',
	'newCredential',
	'ifElse',
	'switchCase',
	'merge',
	'splitInBatches',
	'nextBatch',
	'languageModel',
	'memory',
	'tool',
	'outputParser',
	'embedding',
	'embeddings',
	'vectorStore',
	'retriever',
	'documentLoader',
	'textSplitter',
	'reranker',
	'fromAi',
	'expr',
	'nodeJson',
]);

/**
 * Names that reach outside the SDK. The SDK's interpreter refuses them too; refusing them here
 * as well means no change in the SDK can let them through.
 */
const FORBIDDEN_IDENTIFIERS = new Set([
	'eval',
	'Function',
	'require',
	'process',
	'global',
	'globalThis',
	'module',
	'exports',
	'Buffer',
	'Reflect',
	'Proxy',
	'this',
]);
const FORBIDDEN_PROPERTIES = new Set([
	'constructor',
	'prototype',
	'__proto__',
	'__defineGetter__',
	'__defineSetter__',
	'__lookupGetter__',
	'__lookupSetter__',
	'call',
	'apply',
	'bind',
	'getBuiltinModule',
]);

/** The last fenced code block of a model's answer (```javascript, ```js, ```typescript, ```ts or bare), else the whole text. */
export function extractCode(text: string): string {
	const fences = [...text.matchAll(/```(?:javascript|js|typescript|ts)?[ \t]*\r?\n([\s\S]*?)```/g)];
	return fences.length > 0 ? fences[fences.length - 1][1] : text;
}

/**
 * Checks workflow code without running any of it, before the SDK's interpreter reads it:
 * at most {@link MAX_CODE_CHARS} characters, a JavaScript module acorn can parse, nesting at
 * most {@link MAX_CODE_DEPTH} deep, imports only from `@n8n/workflow-sdk` (blanked out, so
 * line numbers stay those of the model's code), no assignment of any kind (one parse must not
 * change the SDK for the next: `workflow.fromJSON = null`), bare calls only to SDK functions,
 * and no name or property that reaches outside the SDK (`process`, `constructor`, `call`…).
 *
 * @returns the code for `parseWorkflowCodeToBuilder`, with the same line count.
 * @throws {WorkflowCodeError} naming the rule broken and its line.
 */
export function prepareCode(text: string): string {
	const code = extractCode(text);
	if (code.trim() === '')
		throw new WorkflowCodeError(
			'NO_CODE',
			'No workflow code found: answer with one ```javascript code block that ends with export default workflow(...).',
		);
	if (code.length > MAX_CODE_CHARS)
		throw new WorkflowCodeError(
			'CODE_TOO_LONG',
			`The workflow code is ${code.length} characters long; at most ${MAX_CODE_CHARS} are accepted.`,
		);
	let program: Node & { body: Node[] };
	try {
		program = parse(code, {
			ecmaVersion: 'latest',
			sourceType: 'module',
			locations: true,
		}) as Node & {
			body: Node[];
		};
	} catch (error) {
		if (error instanceof RangeError)
			throw new WorkflowCodeError(
				'TOO_DEEP',
				`The code nests too deeply to read (at most ${MAX_CODE_DEPTH} levels).`,
			);
		const line = (error as { loc?: { line: number } }).loc?.line;
		throw new WorkflowCodeError(
			'SYNTAX_ERROR',
			`Syntax error: ${(error as Error).message}. Write plain JavaScript (no TypeScript types).`,
			line,
		);
	}
	checkTree(program);
	return blankSdkImports(code, program.body);
}

function blankSdkImports(code: string, statements: Node[]): string {
	let out = code;
	for (const statement of [...statements].reverse()) {
		if (statement.type !== 'ImportDeclaration') continue;
		const source = (statement as Node & { source: { value: unknown } }).source.value;
		if (source !== '@n8n/workflow-sdk')
			throw new WorkflowCodeError(
				'FORBIDDEN_IMPORT',
				`Only the SDK's own import is allowed, not '${String(source)}'.`,
				lineOf(statement),
			);
		const blank = out.slice(statement.start, statement.end).replace(/[^\n]/g, ' ');
		out = out.slice(0, statement.start) + blank + out.slice(statement.end);
	}
	return out;
}

type AnyNode = Node & Record<string, unknown>;

/** An iterative walk: the check itself must not overflow the stack on deep input. */
function checkTree(program: Node): void {
	const stack: Array<[AnyNode, number]> = [[program as AnyNode, 0]];
	while (stack.length > 0) {
		const [node, depth] = stack.pop()!;
		if (depth > MAX_CODE_DEPTH)
			throw new WorkflowCodeError(
				'TOO_DEEP',
				`The code nests deeper than ${MAX_CODE_DEPTH} levels.`,
				lineOf(node),
			);
		checkNode(node);
		for (const [key, value] of Object.entries(node)) {
			if (key === 'loc' || isPlainName(node, key)) continue;
			if (Array.isArray(value)) {
				for (const child of value) if (isNode(child)) stack.push([child, depth + 1]);
			} else if (isNode(value)) stack.push([value, depth + 1]);
		}
	}
}

function checkNode(node: AnyNode): void {
	switch (node.type) {
		case 'AssignmentExpression':
		case 'UpdateExpression':
			throw new WorkflowCodeError(
				'ASSIGNMENT',
				'Assignments are not allowed: declare every value once with const.',
				lineOf(node),
			);
		case 'ThisExpression':
			throw forbiddenName('this', node);
		case 'Identifier':
			if (FORBIDDEN_IDENTIFIERS.has(node.name as string))
				throw forbiddenName(node.name as string, node);
			return;
		case 'MemberExpression': {
			const property = node.property as AnyNode;
			const name = node.computed ? property.value : property.name;
			if (typeof name === 'string' && FORBIDDEN_PROPERTIES.has(name))
				throw forbiddenName(`.${name}`, node);
			return;
		}
		case 'CallExpression': {
			const callee = node.callee as AnyNode;
			if (callee.type === 'Identifier' && !SDK_FUNCTIONS.has(callee.name as string))
				throw new WorkflowCodeError(
					'UNKNOWN_FUNCTION',
					`${String(callee.name)}() is not an SDK function; call only ${[...SDK_FUNCTIONS].join(', ')} and the builder methods.`,
					lineOf(node),
				);
			return;
		}
		default:
			return;
	}
}

function forbiddenName(name: string, node: AnyNode): WorkflowCodeError {
	return new WorkflowCodeError(
		'FORBIDDEN_NAME',
		`'${name}' is not allowed in workflow code: it only describes the workflow with SDK functions.`,
		lineOf(node),
	);
}

/** A property key (`{ module: 1 }`) or member name (`a.global`) written as a name: not a variable, checked where it is used. */
function isPlainName(node: AnyNode, key: string): boolean {
	if (node.computed) return false;
	return (
		(node.type === 'Property' && key === 'key') ||
		(node.type === 'MemberExpression' && key === 'property')
	);
}

function isNode(value: unknown): value is AnyNode {
	return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

function lineOf(node: Node): number | undefined {
	return node.loc?.start.line;
}
