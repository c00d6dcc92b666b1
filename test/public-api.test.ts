/**
 * Every function the README's "Library" section documents refuses wrong-typed arguments
 * with a ToolbridgeError (code INVALID_ARGUMENT, naming the parameter) — never a raw
 * TypeError — and none changes the objects it is given.
 */
import { describe, expect, it } from 'vitest';
import * as library from '../src/index';

const wrong = [undefined, null, 42, 'text', [], {}, () => undefined] as const;

async function settle(run: () => unknown): Promise<unknown> {
	try {
		const value = run();
		if (value && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
			for await (const part of value as AsyncIterable<unknown>) void part;
		} else await value;
		return undefined;
	} catch (error) {
		return error;
	}
}

/** name → calls with one wrong-typed value where the documented parameter goes. */
const calls: Record<string, (value: unknown) => unknown> = {
	findFromAICalls: (value) => library.findFromAICalls(value as string),
	collectFromAIMarkers: (value) => library.collectFromAIMarkers({}, value as object),
	buildToolSchema: (value) => library.buildToolSchema(value as never),
	mergeFromAIMarkers: (value) => library.mergeFromAIMarkers(value as never),
	toolNameFromNodeName: (value) => library.toolNameFromNodeName(value as string),
	nodeNameToN8nToolName: (value) => library.nodeNameToN8nToolName(value as string),
	parseToolArguments: (value) => library.parseToolArguments(value as string),
	loadWorkflowTools: (value) => library.loadWorkflowTools(value as string),
	runWorkflowAgent: (value) =>
		library.runWorkflowAgent({ nodes: [], connections: {} }, value as never),
	streamChat: (value) =>
		library.streamChat(value as never, { baseUrl: 'http://127.0.0.1:9' } as never),
	collectTurn: (value) => library.collectTurn(value as never),
	createAgentState: (value) => library.createAgentState(value as never),
	runAgent: (value) => library.runAgent(value as never),
	runValidator: (value) => library.runValidator(value as never),
	createLangChainModelCaller: (value) => library.createLangChainModelCaller(value as never),
	withToolTimeout: (value) => library.withToolTimeout(value as never, 1000),
	withNodeLogListener: (value) =>
		library.withNodeLogListener(value as never, async () => undefined),
	emitNodeLogLine: (value) => library.emitNodeLogLine(value as never),
};

// Values a parameter legitimately accepts are skipped (a string is a workflow path, {} is valid options …).
const accepted: Record<string, ReadonlyArray<(typeof wrong)[number] | string>> = {
	findFromAICalls: ['text'],
	collectFromAIMarkers: [undefined, '{}'],
	toolNameFromNodeName: ['text'],
	nodeNameToN8nToolName: ['text'],
	parseToolArguments: ['text'],
	loadWorkflowTools: ['text', '{}'],
	buildToolSchema: ['[]'],
	mergeFromAIMarkers: ['[]'],
	withNodeLogListener: [wrong[6]],
};

const key = (value: unknown) =>
	Array.isArray(value)
		? '[]'
		: value !== null && typeof value === 'object'
			? '{}'
			: (value as string);

describe('the documented library functions refuse wrong-typed arguments', () => {
	const rows = Object.entries(calls).flatMap(([name, call]) =>
		wrong
			.filter((value) => !(accepted[name] ?? []).includes(key(value) as never))
			.map(
				(value) =>
					[
						name,
						typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? 'undefined'),
						call,
						value,
					] as const,
			),
	);
	it.each(rows)('%s(%s) → INVALID_ARGUMENT', async (name, _label, call, value) => {
		const error = await settle(() => call(value));
		expect(library.ToolbridgeError.isInstance(error), `${name} threw ${String(error)}`).toBe(true);
		expect((error as library.ToolbridgeError).code).toBe('INVALID_ARGUMENT');
		expect(error).not.toBeInstanceOf(TypeError);
	});

	it('every function here is exported', () => {
		for (const name of Object.keys(calls))
			expect(typeof (library as Record<string, unknown>)[name]).toBe('function');
	});

	it("runWorkflowAgent leaves the caller's workflow object as it was", async () => {
		const workflow = {
			nodes: [
				{ name: 'Agent', type: 'n8n-nodes-toolbridge.agentOrchestrator', parameters: undefined },
			],
			connections: {},
		};
		const before = JSON.stringify(workflow);
		await settle(() => library.runWorkflowAgent(workflow, { prompt: 'hi', env: {} }));
		expect(JSON.stringify(workflow)).toBe(before);
	});
});
