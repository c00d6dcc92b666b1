/**
 * Workflow code is read without running it: the pre-pass and the SDK's AST interpreter refuse
 * hostile code (process access, loops, constructor and prototype tricks, assignments that would
 * change the SDK for the next parse, huge or deep input) with a WorkflowCodeError, never a raw
 * error, never a hang, and nothing of it runs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseWorkflowCodeToBuilder, workflow } from '@n8n/workflow-sdk';
import { describe, expect, it } from 'vitest';
import { MAX_CODE_CHARS, extractCode, prepareCode } from '../../src/builder/code/prepare-code';
import { parseWorkflowCode } from '../../src/builder/code/parse-workflow-code';
import {
	WorkflowCodeError,
	type WorkflowCodeProblem,
} from '../../src/builder/code/workflow-code-error';

const valid = `const start = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });
export default workflow('w', 'W').add(start);`;

const doubling = (() => {
	let code = "const a0 = 'xxxxxxxxxx';\n";
	for (let step = 1; step < 40; step++) code += `const a${step} = a${step - 1} + a${step - 1};\n`;
	return code + valid;
})();

const hostile: Array<[string, string, WorkflowCodeProblem]> = [
	// [what, code, the problem it is refused for]
	['process.exit()', `process.exit(3);\n${valid}`, 'FORBIDDEN_NAME'],
	[
		'process.getBuiltinModule',
		`const fs = process.getBuiltinModule('fs');\n${valid}`,
		'FORBIDDEN_NAME',
	],
	[
		'getBuiltinModule through a member',
		`const m = node.getBuiltinModule;\n${valid}`,
		'FORBIDDEN_NAME',
	],
	['globalThis.process', `const p = globalThis.process;\n${valid}`, 'FORBIDDEN_NAME'],
	['require()', `const cp = require('child_process');\n${valid}`, 'UNKNOWN_FUNCTION'],
	['eval()', `eval('1');\n${valid}`, 'UNKNOWN_FUNCTION'],
	['new Function()', `const f = new Function('return 1');\n${valid}`, 'FORBIDDEN_NAME'],
	['while (true) {}', `while (true) {}\n${valid}`, 'SDK_REJECTED'],
	['for (;;) {}', `for (;;) {}\n${valid}`, 'SDK_REJECTED'],
	['an arrow function', `const f = () => 1;\n${valid}`, 'SDK_REJECTED'],
	['a class', `class A {}\n${valid}`, 'SDK_REJECTED'],
	['let', `let a = 1;\n${valid}`, 'SDK_REJECTED'],
	['a tagged template', 'const a = node`x`;\n' + valid, 'SDK_REJECTED'],
	[
		'arrow constructor',
		`const f = (() => {}).constructor('return process')();\n${valid}`,
		'FORBIDDEN_NAME',
	],
	[
		'node.constructor',
		`const f = node.constructor('return process')();\n${valid}`,
		'FORBIDDEN_NAME',
	],
	[
		"node['constructor']",
		`const f = node['constructor']('return process')();\n${valid}`,
		'FORBIDDEN_NAME',
	],
	['this.constructor', `const f = this.constructor;\n${valid}`, 'FORBIDDEN_NAME'],
	['({}).__proto__', `const p = ({}).__proto__;\n${valid}`, 'FORBIDDEN_NAME'],
	['__lookupGetter__', `const g = ({}).__lookupGetter__;\n${valid}`, 'FORBIDDEN_NAME'],
	['node.call', `const c = node.call;\n${valid}`, 'FORBIDDEN_NAME'],
	['node.bind', `const b = node.bind(null);\n${valid}`, 'FORBIDDEN_NAME'],
	['calling a const', `const s = ({}).toString;\nconst r = s();\n${valid}`, 'UNKNOWN_FUNCTION'],
	['workflow.fromJSON = null', `workflow.fromJSON = null;\n${valid}`, 'ASSIGNMENT'],
	['node.polluted = 1', `node.polluted = 'yes';\n${valid}`, 'ASSIGNMENT'],
	[
		"o['__proto__'] = x",
		`const o = {};\no['__proto__'] = { polluted: 1 };\n${valid}`,
		'ASSIGNMENT',
	],
	['an update expression', `const a = [1];\na[0]++;\n${valid}`, 'ASSIGNMENT'],
	['another import', `import fs from 'node:fs';\n${valid}`, 'FORBIDDEN_IMPORT'],
	['a dynamic import', `const m = import('node:fs');\n${valid}`, 'SDK_REJECTED'],
	['JSON.parse', `const o = JSON.parse('{}');\n${valid}`, 'SDK_REJECTED'],
	["'x'.repeat(1e9)", `const s = 'x'.repeat(1e9);\n${valid}`, 'SDK_REJECTED'],
	['a doubling string bomb', doubling, 'SDK_REJECTED'],
	[
		'10,000 nested arrays',
		`const a = ${'['.repeat(10_000)}${']'.repeat(10_000)};\n${valid}`,
		'TOO_DEEP',
	],
	[
		'2,000 nested calls',
		`const a = ${'JSON.stringify('.repeat(2_000)}1${')'.repeat(2_000)};\n${valid}`,
		'TOO_DEEP',
	],
	[
		'10 MB of code',
		`${"const v = 'abcdefghijklmnopqrstuvwxyz0123456789';\n".repeat(250_000)}${valid}`,
		'CODE_TOO_LONG',
	],
	['TypeScript annotations', `const name: string = 'x';\n${valid}`, 'SYNTAX_ERROR'],
	['no code at all', '   ', 'NO_CODE'],
	[
		'no workflow exported',
		`const start = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });\nexport default start;`,
		'SDK_REJECTED',
	],
];

describe('parseWorkflowCode: hostile code is refused without running', () => {
	it.each(hostile.map(([name, code, problem]) => ({ name, code, problem })))(
		'$name → $problem',
		({ code, problem }) => {
			let caught: unknown;
			try {
				parseWorkflowCode(code);
			} catch (error) {
				caught = error;
			}
			expect(caught).toBeInstanceOf(WorkflowCodeError);
			expect((caught as WorkflowCodeError).problem).toBe(problem);
			expect((caught as WorkflowCodeError).code).toBe('WORKFLOW_CODE_INVALID');
		},
	);

	it('the refused code had no effect: the SDK still works and nothing leaked into it', () => {
		for (const [, code] of hostile)
			expect(() => parseWorkflowCode(code)).toThrow(WorkflowCodeError);
		expect(typeof workflow.fromJSON).toBe('function');
		expect((globalThis as Record<string, unknown>).polluted).toBeUndefined();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		const { builder } = parseWorkflowCode(valid);
		expect(builder.toJSON().nodes.map((node) => node.name)).toEqual(['Start']);
	});

	it('without the pre-pass the SDK would have let one parse break the next (why assignments are refused)', () => {
		const original = workflow.fromJSON;
		try {
			parseWorkflowCodeToBuilder(`workflow.fromJSON = null;\n${valid}`);
			expect(() => parseWorkflowCodeToBuilder('{ "nodes": [], "connections": {} }')).toThrow();
		} finally {
			(workflow as { fromJSON: typeof original }).fromJSON = original;
		}
	});

	it('size is bounded before any parser runs', () => {
		const text = `const a = '${'x'.repeat(MAX_CODE_CHARS)}';\n${valid}`;
		expect(() => prepareCode(text)).toThrow(/at most 200000/);
	});

	it('reads the last fenced block, keeps the SDK import line as blank lines, and names lines', () => {
		const text = `I searched first.\n\`\`\`js\nconst x = 1;\n\`\`\`\nThe workflow:\n\`\`\`javascript\nimport { workflow, trigger } from '@n8n/workflow-sdk';\n${valid}\n\`\`\``;
		expect(extractCode(text).startsWith('import {')).toBe(true);
		const prepared = prepareCode(text);
		expect(prepared.split('\n')[0].trim()).toBe('');
		expect(prepared.split('\n').length).toBe(extractCode(text).split('\n').length);
		try {
			parseWorkflowCode(`const a = 1;\nconst b = 2;\nlet c = 3;\n${valid}`);
		} catch (error) {
			expect((error as WorkflowCodeError).line).toBe(3);
		}
	});

	it('keeps property and parameter names that merely look like globals (module, global, exports)', () => {
		const code = `const start = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });
const set = node({ type: 'n8n-nodes-base.set', version: 3.4, config: { name: 'Set', parameters: { module: 'a', global: true, exports: 1 } } });
export default workflow('w', 'W').add(start).to(set);`;
		expect(parseWorkflowCode(code).builder.toJSON().nodes).toHaveLength(2);
	});
});

describe('no Function, eval or vm in the builder path', () => {
	// A call of eval or Function (not a message naming them), or the vm module.
	const forbidden =
		/(^|[^'"\w.])(eval|Function)\s*\(|\bnew\s+Function\b|require\(['"](node:)?vm['"]\)|from ['"](node:)?vm['"]/m;
	const files = (directory: string): string[] =>
		readdirSync(directory).flatMap((entry) => {
			const path = join(directory, entry);
			return statSync(path).isDirectory()
				? files(path)
				: path.endsWith('.ts') || path.endsWith('.js')
					? [path]
					: [];
		});

	it('the scan finds what it looks for', () => {
		for (const text of [
			"const f = new Function('a');",
			'x = eval(y);',
			"import vm from 'node:vm';",
			"require('vm')",
		])
			expect(forbidden.test(text), text).toBe(true);
		expect(forbidden.test("throw new SecurityError('eval()');")).toBe(false);
	});

	it('src/builder', () => {
		const offenders = files(join(__dirname, '../../src/builder')).filter((file) =>
			forbidden.test(readFileSync(file, 'utf8')),
		);
		expect(offenders).toEqual([]);
	});

	it("the SDK's parser and interpreter (a new SDK version that evaluates code fails here)", () => {
		const sdk = dirname(require.resolve('@n8n/workflow-sdk/package.json'));
		const parserFiles = [
			...files(join(sdk, 'dist/ast-interpreter')),
			join(sdk, 'dist/codegen/parse-workflow-code.js'),
		].filter((file) => file.endsWith('.js'));
		expect(parserFiles.length).toBeGreaterThan(3);
		const offenders = parserFiles.filter((file) => forbidden.test(readFileSync(file, 'utf8')));
		expect(offenders).toEqual([]);
	});
});
