/**
 * The engine driver with an OpenTelemetry SDK registered (as n8n does with N8N_OTEL_ENABLED):
 * n8n runs the tool nodes between the node's entries, so each entry is one `invoke_agent`
 * span (tagged with its entry number and n8n's ids) holding that entry's model calls; the last
 * entry carries the run's usage. The workflow runs on n8n-core's WorkflowExecute with a real
 * Crypto tool node; only the model is a loopback fake.
 */
import { context, trace } from '@opentelemetry/api';
import {
	InMemorySpanExporter,
	NodeTracerProvider,
	SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textReply, toolCallReply } from '../../../support/fake-chat-server';
import { fakeChatServerForFile } from '../../../support/fake-chat-server-hooks';
import { hashTextToolNode } from '../../../support/real-tool-nodes';
import { fakeModelCredentials, orchestratorNode, runEngineWorkflow } from '../engine-workflow';

const apiKey = 'sk-engine-trace-0123456789abcdef0123456789';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const server = fakeChatServerForFile({
	respond: ({ body }) =>
		body.messages.at(-1).role === 'tool'
			? textReply(`digest ${body.messages.at(-1).content}`)
			: toolCallReply([{ id: 'h1', name: 'Hash_text', arguments: { text: 'traced' } }]),
});

beforeAll(() => provider.register());
afterAll(async () => {
	await provider.shutdown();
	trace.disable();
	context.disable();
});

describe('the engine driver with tracing on', () => {
	it('one invoke_agent span per entry with its chat spans; the tool is a node run; usage on the last; no key', async () => {
		const result = await runEngineWorkflow({
			agent: orchestratorNode('Agent', { model: 'fake/model', prompt: '={{ $json.chatInput }}' }),
			tools: [hashTextToolNode()],
			items: [{ chatInput: 'traced' }],
			credentials: fakeModelCredentials(apiKey, server.baseUrl),
		});
		expect(String(result.output[0].json.output)).toContain(sha256('traced'));
		expect(result.run.data.resultData.runData['Hash text']).toHaveLength(1);

		const spans = exporter.getFinishedSpans();
		const agents = spans.filter((span) => span.name === 'invoke_agent Agent');
		expect(agents.map((span) => span.attributes['toolbridge.engine.entry'])).toEqual([0, 1]);
		for (const agent of agents) {
			expect(agent.attributes).toMatchObject({
				'gen_ai.operation.name': 'invoke_agent',
				'n8n.node.name': 'Agent',
				'n8n.node.type': 'n8n-nodes-toolbridge.agentOrchestrator',
			});
			const children = spans.filter(
				(span) => span.parentSpanContext?.spanId === agent.spanContext().spanId,
			);
			// The tool runs as n8n's own node between the entries: no execute_tool span of ours.
			expect(children.map((span) => span.name)).toEqual(['chat fake/model']);
		}
		expect(agents[0].attributes['gen_ai.usage.input_tokens']).toBeUndefined();
		expect(agents[1].attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
		expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(apiKey);
	});
});
