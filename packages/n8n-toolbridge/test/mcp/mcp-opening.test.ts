/**
 * The hand-built answers of the light stdio path equal the SDK's own (run both on the same
 * opening), and the protocol revisions it names are the SDK's: a guard for SDK upgrades.
 */
import { PassThrough } from 'node:stream';
import { SUPPORTED_PROTOCOL_VERSIONS, deserializeMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { mcpServerFactory } from '../../src/mcp/create-mcp-server';
import { LEGACY_PROTOCOL_VERSIONS, workflowServerDescription } from '../../src/mcp/mcp-description';
import { listedTool } from '../../src/mcp/listed-tool';
import type { McpTool } from '../../src/mcp/mcp-tool';
import { openingAnswer, openingEra, toolsListAnswer } from '../../src/mcp/opening-answer';
import { startStdioEarlyReader } from '../../src/mcp/stdio-early-reader';

const description = workflowServerDescription('Opening test', 'Agent');
const envelope = {
	'io.modelcontextprotocol/protocolVersion': '2026-07-28',
	'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
	'io.modelcontextprotocol/clientCapabilities': {},
};
const openings = {
	'server/discover (2026-07-28)': {
		jsonrpc: '2.0',
		id: 'probe-1',
		method: 'server/discover',
		params: { _meta: envelope },
	},
	'initialize 2025-06-18': {
		jsonrpc: '2.0',
		id: 1,
		method: 'initialize',
		params: {
			protocolVersion: '2025-06-18',
			capabilities: {},
			clientInfo: { name: 'c', version: '1' },
		},
	},
	'initialize of an unknown revision': {
		jsonrpc: '2.0',
		id: 2,
		method: 'initialize',
		params: {
			protocolVersion: '2099-01-01',
			capabilities: {},
			clientInfo: { name: 'c', version: '1' },
		},
	},
};

/** What the SDK itself answers to `message` as the first message of a stdio connection. */
async function sdkAnswer(message: object): Promise<unknown> {
	const sent: unknown[] = [];
	const transport = {
		onmessage: undefined as ((message: unknown) => void) | undefined,
		onclose: undefined as (() => void) | undefined,
		async start() {
			queueMicrotask(() => transport.onmessage?.(message));
		},
		async send(answer: unknown) {
			sent.push(answer);
		},
		async close() {
			transport.onclose?.();
		},
	};
	const factory = mcpServerFactory({
		tools: [],
		name: description.name,
		instructions: description.instructions,
	});
	const handle = serveStdio(factory, { transport: transport as never });
	await expect.poll(() => sent.length).toBe(1);
	await handle.close();
	return sent[0];
}

/** An early reader on in-memory stdin/stdout; `written` collects the lines it (or the SDK) writes. */
function earlyReader() {
	const stdin = new PassThrough();
	const stdout = new PassThrough();
	const written: string[] = [];
	stdout.on('data', (chunk: Buffer) =>
		written.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
	);
	return { stdin, written, reader: startStdioEarlyReader(description, { stdin, stdout }) };
}

describe('the light stdio opening', () => {
	it('names the SDK’s 2025 revisions', () => {
		expect(LEGACY_PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
	});

	it.each(Object.entries(openings))('answers %s exactly as the SDK does', async (_, message) => {
		const byHand = openingAnswer(message, description);
		expect(byHand).toBeDefined();
		expect(byHand).toEqual(await sdkAnswer(message));
	});

	it('leaves anything else to the SDK (a claim-less server/discover, a tools/list, not JSON-RPC)', () => {
		expect(
			openingAnswer({ jsonrpc: '2.0', id: 1, method: 'server/discover' }, description),
		).toBeUndefined();
		expect(
			openingAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, description),
		).toBeUndefined();
		expect(openingAnswer('hello', description)).toBeUndefined();
	});

	it('the early reader answers at once, keeps every line, and the SDK answers the rest without answering the opening twice', async () => {
		const { stdin, written, reader } = earlyReader();
		stdin.write(`${JSON.stringify(openings['initialize 2025-06-18'])}\n`);
		stdin.write(
			`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n`,
		);
		await reader.firstLine(1000);
		expect(written.map((line) => JSON.parse(line).id)).toEqual([1]);
		const factory = mcpServerFactory({
			tools: [],
			name: description.name,
			instructions: description.instructions,
		});
		const handle = serveStdio(factory, {
			transport: reader.transport(deserializeMessage) as never,
		});
		await expect.poll(() => written.length).toBe(2);
		expect(JSON.parse(written[1])).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
		stdin.end();
		await reader.closed;
		await handle.close();
	});
});

/** A tool with a title, annotations and a schema 2020-12 rewrites (a tuple-less draft-07 `definitions`). */
const hashTool: McpTool = {
	name: 'Hash_text',
	title: 'Hash text',
	description: 'Hashes a text',
	inputSchema: {
		type: 'object',
		properties: { text: { $ref: '#/definitions/text' } },
		required: ['text'],
		definitions: { text: { type: 'string', description: 'The text' } },
	} as never,
	annotations: { readOnlyHint: true },
	call: async () => ({ content: 'x', isError: false }),
};

/** The SDK's answers on one stdio connection to `messages` (in order): the last answer. */
async function sdkLastAnswer(messages: object[], tools: McpTool[]): Promise<unknown> {
	const sent: unknown[] = [];
	const transport = {
		onmessage: undefined as ((message: unknown) => void) | undefined,
		onclose: undefined as (() => void) | undefined,
		async start() {
			queueMicrotask(() => {
				for (const message of messages) transport.onmessage?.(message);
			});
		},
		async send(answer: unknown) {
			sent.push(answer);
		},
		async close() {
			transport.onclose?.();
		},
	};
	const factory = mcpServerFactory({
		tools,
		name: description.name,
		instructions: description.instructions,
	});
	const handle = serveStdio(factory, { transport: transport as never });
	const answers = messages.filter((message) => 'id' in message).length;
	await expect.poll(() => sent.length).toBe(answers);
	await handle.close();
	return sent.at(-1);
}

describe('tools/list on the light stdio path', () => {
	const lists = {
		'2026-07-28': [
			openings['server/discover (2026-07-28)'],
			{ jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: { _meta: envelope } },
		],
		'2025-06-18': [
			openings['initialize 2025-06-18'],
			{ jsonrpc: '2.0', method: 'notifications/initialized' },
			{ jsonrpc: '2.0', id: 3, method: 'tools/list' },
		],
	};

	it.each(Object.entries(lists))('answers %s exactly as the SDK does', async (_, messages) => {
		const era = openingEra(messages[0]);
		const byHand = toolsListAnswer(
			messages.at(-1),
			era,
			[hashTool].map((tool) => listedTool(tool, era)),
			description,
		);
		expect(byHand).toBeDefined();
		// As the client reads it: the wire JSON (the SDK's result object also holds a Symbol-keyed
		// cache-hint fallback, which JSON leaves out).
		expect(byHand).toEqual(JSON.parse(JSON.stringify(await sdkLastAnswer(messages, [hashTool]))));
	});

	it('the early reader answers tools/list once the tools are loaded, before the SDK, and the SDK never answers it twice', async () => {
		const { stdin, written, reader } = earlyReader();
		for (const message of lists['2025-06-18']) stdin.write(`${JSON.stringify(message)}\n`);
		await reader.firstLine(1000);
		await expect.poll(() => written.length).toBe(1);
		reader.answerToolsList([hashTool]);
		expect(written.map((line) => JSON.parse(line).id)).toEqual([1, 3]);
		expect(JSON.parse(written[1]).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
			'Hash_text',
		]);
		stdin.write('{"jsonrpc":"2.0","id":4,"method":"tools/list"}\n');
		await expect.poll(() => written.length).toBe(3);
		const factory = mcpServerFactory({
			tools: [hashTool],
			name: description.name,
			instructions: description.instructions,
		});
		const handle = serveStdio(factory, {
			transport: reader.transport(deserializeMessage) as never,
		});
		stdin.write('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
		await expect.poll(() => written.length).toBe(4);
		expect(written.map((line) => JSON.parse(line).id)).toEqual([1, 3, 4, 5]);
		stdin.end();
		await reader.closed;
		await handle.close();
	});

	it('leaves anything else to the SDK', () => {
		for (const message of [
			{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'Hash_text' } },
			{ jsonrpc: '2.0', method: 'tools/list' },
			'tools/list',
		])
			expect(toolsListAnswer(message, 'legacy', [], description)).toBeUndefined();
	});
});
