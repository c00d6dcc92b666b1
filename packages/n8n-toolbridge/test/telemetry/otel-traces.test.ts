/**
 * `toolbridge run --otel-endpoint`: the real CLI process exports the spans of a nested-agent
 * run (coordinator → writer and hasher agents as tools → the hasher's real Crypto node) to a
 * loopback OTLP collector; the tree, the GenAI attributes and what never goes into a span.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import {
	startOtlpCollector,
	type CollectedSpan,
	type OtlpCollector,
} from '../support/otlp-collector';
import { runToolbridge } from '../support/toolbridge-process';
import { traceExportUrl } from '../../src/telemetry/start-trace-export';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const coordinatorKey = 'sk-or-coordinator-1111';
const hashingKey = 'sk-or-hashing-2222';
const models = {
	coordinator: 'openai/gpt-4.1',
	writer: 'anthropic/claude-3.5-haiku',
	hasher: 'openai/gpt-4.1-mini',
};
const toolResults = (request: FakeRequest): string[] =>
	(request.body.messages as Array<{ role: string; content: string }>)
		.filter((message) => message.role === 'tool')
		.map((message) => message.content);

let model: FakeChatServer;
let credentials: string;

beforeAll(async () => {
	model = await startFakeChatServer({
		respond: (request) => {
			const last = request.body.messages.at(-1);
			if (request.body.model === models.writer) return textReply('Owls hunt quietly at night.');
			if (request.body.model === models.hasher)
				return last.role === 'tool'
					? textReply(`SHA-256 of owl: ${last.content}`)
					: toolCallReply([{ id: 'call_hash', name: 'Hash_text', arguments: { text: 'owl' } }]);
			return last.role === 'tool'
				? textReply(`Done. ${toolResults(request).join(' | ')}`)
				: toolCallReply([
						{ id: 'call_writer', name: 'Writer_Agent', arguments: { topic: 'owls', words: '20' } },
						{ id: 'call_hasher', name: 'Hash_Agent', arguments: { task: 'Hash the word "owl"' } },
					]);
		},
	});
	credentials = join(mkdtempSync(join(tmpdir(), 'toolbridge-otel-')), 'credentials.json');
	writeFileSync(
		credentials,
		JSON.stringify({
			'OpenRouter account': { apiKey: coordinatorKey, url: model.baseUrl },
			'Hashing key': { apiKey: hashingKey, url: model.baseUrl },
		}),
	);
});

afterAll(async () => {
	await model?.close();
});

async function tracedRun(extra: string[] = [], env: Record<string, string> = {}) {
	const collector = await startOtlpCollector();
	try {
		const result = await runToolbridge(
			[
				'run',
				'fixtures/workflows/nested-agents.json',
				'--prompt',
				'Write about owls and hash "owl"',
				'--credentials',
				credentials,
				'--otel-endpoint',
				collector.url,
				...extra,
			],
			env,
		);
		expect(result.stderr).not.toMatch(/error/i);
		expect(result.status).toBe(0);
		return collector;
	} finally {
		await collector.close();
	}
}

/** The span tree as indented names, children in start order. */
function tree(spans: CollectedSpan[], parent?: string, depth = 0): string[] {
	return spans
		.filter((span) => span.parentSpanId === parent)
		.sort((left, right) => left.name.localeCompare(right.name))
		.flatMap((span) => [
			`${'  '.repeat(depth)}${span.name}`,
			...tree(spans, span.spanId, depth + 1),
		]);
}

describe('toolbridge run --otel-endpoint', () => {
	let collector: OtlpCollector;
	let spans: CollectedSpan[];
	let withContent: OtlpCollector;

	beforeAll(async () => {
		// Both runs at once: two CLI processes, two collectors.
		[collector, withContent] = await Promise.all([tracedRun(), tracedRun(['--otel-content'])]);
		spans = collector.spans();
	}, 120_000);

	it('posts OTLP/HTTP JSON to <endpoint>/v1/traces, from service "toolbridge"', () => {
		expect(collector.requests.length).toBeGreaterThan(0);
		for (const request of collector.requests) {
			expect(request.path).toBe('/v1/traces');
			expect(request.contentType).toMatch(/^application\/json/);
		}
		expect(new Set(spans.map((span) => span.resource['service.name']))).toEqual(
			new Set(['toolbridge']),
		);
		expect(new Set(spans.map((span) => span.scope))).toEqual(new Set(['n8n-nodes-toolbridge']));
	});

	it('one trace: invoke_agent → chat / execute_tool, each nested agent under its execute_tool', () => {
		expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
		expect(tree(spans)).toEqual([
			'invoke_agent Coordinator',
			'  chat openai/gpt-4.1',
			'  chat openai/gpt-4.1',
			'  execute_tool Hash_Agent',
			'    invoke_agent Hash Agent',
			'      chat openai/gpt-4.1-mini',
			'      chat openai/gpt-4.1-mini',
			'      execute_tool Hash_text',
			'  execute_tool Writer_Agent',
			'    invoke_agent Writer Agent',
			'      chat anthropic/claude-3.5-haiku',
		]);
	});

	it('GenAI attributes: operation, agent, models, usage, tool name and call id, kinds', () => {
		const byName = (name: string) => spans.filter((span) => span.name === name);
		const [coordinator] = byName('invoke_agent Coordinator');
		expect(coordinator).toMatchObject({ kind: 1 });
		expect(coordinator.attributes).toMatchObject({
			'gen_ai.operation.name': 'invoke_agent',
			'gen_ai.agent.name': 'Coordinator',
			'gen_ai.request.model': models.coordinator,
			'gen_ai.provider.name': 'openai',
			'server.address': '127.0.0.1',
			// 5 model calls of 12 prompt tokens each: the whole run, nested agents included.
			'gen_ai.usage.input_tokens': 60,
		});
		const [chat] = byName('chat openai/gpt-4.1');
		expect(chat).toMatchObject({ kind: 3 });
		expect(chat.attributes).toMatchObject({
			'gen_ai.operation.name': 'chat',
			'gen_ai.request.model': models.coordinator,
			'gen_ai.response.model': 'fake/model',
			'gen_ai.response.finish_reasons': ['tool_calls'],
			'gen_ai.usage.input_tokens': 12,
			'gen_ai.usage.output_tokens': expect.any(Number),
		});
		expect(byName('execute_tool Hash_text')[0]).toMatchObject({
			kind: 1,
			attributes: {
				'gen_ai.operation.name': 'execute_tool',
				'gen_ai.tool.name': 'Hash_text',
				'gen_ai.tool.call.id': 'call_hash',
				'gen_ai.tool.type': 'function',
				'n8n.node.type': 'n8n-nodes-base.cryptoTool',
			},
		});
		expect(byName('execute_tool Writer_Agent')[0].attributes['gen_ai.tool.call.id']).toBe(
			'call_writer',
		);
		expect(spans.every((span) => span.status.code !== 2)).toBe(true);
	});

	it('no secret, argument, result or message text in any span', () => {
		const everything = collector.requests.map((request) => request.body).join('\n');
		for (const text of [
			coordinatorKey,
			hashingKey,
			'owls',
			'Owls hunt',
			sha256('owl'),
			'Hash the word',
		])
			expect(everything).not.toContain(text);
	});

	it('--otel-content adds prompts, answers, tool arguments and results, still without secrets', () => {
		const everything = withContent.requests.map((request) => request.body).join('\n');
		expect(everything).not.toContain(coordinatorKey);
		expect(everything).not.toContain(hashingKey);
		const [hashText] = withContent.spans().filter((span) => span.name === 'execute_tool Hash_text');
		expect(hashText.attributes).toMatchObject({
			'gen_ai.tool.call.arguments': JSON.stringify({ text: 'owl' }),
			'gen_ai.tool.call.result': JSON.stringify([{ hash: sha256('owl') }]),
		});
		const [coordinator] = withContent
			.spans()
			.filter((span) => span.name === 'invoke_agent Coordinator');
		expect(JSON.parse(coordinator.attributes['gen_ai.input.messages'] as string)).toEqual([
			{ role: 'user', parts: [{ type: 'text', content: 'Write about owls and hash "owl"' }] },
		]);
	});
});

describe('the OTLP endpoint', () => {
	it.each([
		['--otel-endpoint is the base URL', 'http://c:4318', {}, 'http://c:4318/v1/traces'],
		['with a path', 'http://c:4318/otel/', {}, 'http://c:4318/otel/v1/traces'],
		[
			'it wins over the environment',
			'http://c:1',
			{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e:2' },
			'http://c:1/v1/traces',
		],
		[
			'OTEL_EXPORTER_OTLP_ENDPOINT',
			undefined,
			{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e:2' },
			'http://e:2/v1/traces',
		],
		[
			'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, before the generic one',
			undefined,
			{
				OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:3/custom',
				OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e:2',
			},
			'http://t:3/custom',
		],
		['none set: no export', undefined, {}, undefined],
		[
			'OTEL_SDK_DISABLED=true',
			undefined,
			{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e:2' },
			undefined,
		],
	])('%s', (_label, endpoint, env, expected) => {
		expect(traceExportUrl(endpoint, env)).toBe(expected);
	});

	it('refuses what is not an http(s) URL', () => {
		expect(() => traceExportUrl('localhost:4318', {})).toThrow(
			/--otel-endpoint must be the http\(s\) URL/,
		);
	});
});
