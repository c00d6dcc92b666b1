/**
 * Inside n8n, with an OpenTelemetry SDK registered (as n8n does with N8N_OTEL_ENABLED): the
 * node's agent run is an invoke_agent span tagged with n8n's workflow, execution and node, its
 * model and tool calls under it. Here the SDK is registered in this test process.
 */
import { context, trace } from '@opentelemetry/api';
import {
	InMemorySpanExporter,
	NodeTracerProvider,
	SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeChatServerPerTest } from '../../../support/fake-chat-server-hooks';
import { textReply, toolCallReply } from '../../../support/fake-chat-server';
import { hashTool, sha256 } from '../../../support/langchain-tools';
import {
	executeOrchestrator,
	orchestratorApiKey,
	orchestratorContext,
} from '../../../support/orchestrator-context';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const start = fakeChatServerPerTest();

beforeAll(() => provider.register());
afterAll(async () => {
	await provider.shutdown();
	trace.disable();
	context.disable();
});

describe('the AgentOrchestrator node with tracing on', () => {
	it('invoke_agent carries n8n ids; chat and execute_tool spans under it; no key, no content', async () => {
		const fake = await start(({ body }) =>
			body.messages.at(-1).role === 'tool'
				? textReply(`digest ${body.messages.at(-1).content}`)
				: toolCallReply([{ id: 'c1', name: 'hash', arguments: { text: 'one' } }]),
		);
		const { context: node } = orchestratorContext({
			baseUrl: fake.baseUrl,
			items: [{ chatInput: 'one' }],
			tools: [hashTool()],
		});
		await executeOrchestrator(node);
		const spans = exporter.getFinishedSpans();
		const [agent] = spans.filter((span) => span.name === 'invoke_agent Agent');
		expect(agent.attributes).toMatchObject({
			'gen_ai.operation.name': 'invoke_agent',
			'gen_ai.agent.name': 'Agent',
			'gen_ai.request.model': 'test/model',
			'n8n.workflow.id': 'wf-7',
			'n8n.execution.id': '42',
			'n8n.node.name': 'Agent',
			'n8n.node.type': 'n8n-nodes-toolbridge.agentOrchestrator',
			'gen_ai.usage.input_tokens': 24,
		});
		const children = spans.filter(
			(span) => span.parentSpanContext?.spanId === agent.spanContext().spanId,
		);
		expect(children.map((span) => span.name)).toEqual([
			'chat test/model',
			'execute_tool hash',
			'chat test/model',
		]);
		expect(children[1].attributes).toMatchObject({
			'gen_ai.tool.name': 'hash',
			'gen_ai.tool.call.id': 'c1',
		});
		const everything = JSON.stringify(spans.map((span) => span.attributes));
		expect(everything).not.toContain(orchestratorApiKey);
		expect(everything).not.toContain(sha256('one'));
	});
});
