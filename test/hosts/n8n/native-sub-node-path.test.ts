import { describe, expect, it } from 'vitest';
import { ToolbridgeChatModel } from '../../../nodes/ToolbridgeChatModel/ToolbridgeChatModel.node';
import { supplyToolbridgeChatModel } from '../../../src/hosts/n8n/chat-model/supply-toolbridge-chat-model';
import { loadAiNodeSdk } from '../../../src/hosts/n8n/chat-model/load-ai-node-sdk';
import {
	createLangChainModelCaller,
	type LangChainChatModelLike,
} from '../../../src/langchain/langchain-model-caller';
import { runAgent } from '../../../src/agent/run-agent';
import { inProcessAgentTool } from '../../../src/hosts/n8n/engine/in-process-agent-tool';
import { textReply, toolCallReply, type FakeRequest } from '../../support/fake-chat-server';
import { hashTool, sha256 } from '../../support/langchain-tools';
import { fakeChatServerPerTest } from '../../support/fake-chat-server-hooks';
import { executeOrchestrator, orchestratorContext } from '../../support/orchestrator-context';
import { apiKey, chatModelContext } from './chat-model/chat-model-context';

const start = fakeChatServerPerTest();
const respond = ({ index, body }: FakeRequest) =>
	index % 2 === 0
		? toolCallReply([{ id: `call_${index}`, name: 'hash', arguments: { text: 'toolbridge' } }], {
				usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
			})
		: textReply(`hash: ${body.messages.at(-1).content}`, {
				usage: { prompt_tokens: 20, completion_tokens: 6, total_tokens: 26 },
			});

/** The Toolbridge Chat Model's supplied model (n8n's SDK adapter around it), as the orchestrator receives it. */
async function suppliedSubNode(baseUrl: string) {
	const sub = chatModelContext({
		baseUrl,
		parameters: {
			model: { __rl: true, mode: 'id', value: 'anthropic/claude-sonnet-4' },
			options: { temperature: 0.3, seed: 11 },
		},
	});
	const supplied = await new ToolbridgeChatModel().supplyData.call(sub.context, 0);
	return { model: supplied.response, traced: sub.traced };
}

describe('the orchestrator with a connected Toolbridge Chat Model (native path)', () => {
	it('runs the built-in client with the sub-node’s settings, logs each call as a run of the sub-node, never reads its own credential', async () => {
		const fake = await start(respond);
		const { model, traced } = await suppliedSubNode(fake.baseUrl);
		const { context, credentialReads } = orchestratorContext({
			items: [{ chatInput: 'hash toolbridge' }],
			model,
			tools: [hashTool()],
			credentials: null,
			options: { returnIntermediateSteps: true },
		});
		const [[item]] = await executeOrchestrator(context);

		expect(item.json.output).toBe(`hash: ${sha256('toolbridge')}`);
		expect(credentialReads).toEqual([]);
		for (const request of fake.requests) {
			expect(request.body).toMatchObject({
				model: 'anthropic/claude-sonnet-4',
				temperature: 0.3,
				seed: 11,
				stream: true,
			});
			expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
		}
		// Two model calls → two runs of the sub-node, in n8n's tracing shape.
		expect(traced.map((entry) => entry.kind)).toEqual(['input', 'output', 'input', 'output']);
		const [firstIn, firstOut] = traced.map(
			(entry) => (entry.data as Array<Array<{ json: Record<string, unknown> }>>)[0][0].json,
		);
		expect(firstIn.messages).toEqual(['Human: hash toolbridge']);
		expect(firstOut).toMatchObject({
			response: {
				generations: [
					[
						{
							text: '',
							generationInfo: {
								finish_reason: 'tool_calls',
								tool_calls: [{ id: 'call_0', name: 'hash', arguments: { text: 'toolbridge' } }],
							},
						},
					],
				],
			},
			tokenUsage: { promptTokens: 10, completionTokens: 4, totalTokens: 14 },
		});
		expect(JSON.stringify(traced)).not.toContain(apiKey);
		expect(item.json.usage).toMatchObject({ totalTokens: 40 });
	});

	it('gives the same requests and answer as the LangChain round trip through n8n’s adapter', async () => {
		const native = await start(respond);
		const viaNative = await suppliedSubNode(native.baseUrl);
		const { context } = orchestratorContext({
			items: [{ chatInput: 'hash toolbridge' }],
			model: viaNative.model,
			tools: [hashTool()],
			credentials: null,
		});
		const [[nativeItem]] = await executeOrchestrator(context);

		const roundTrip = await start(respond);
		const viaAdapter = await suppliedSubNode(roundTrip.baseUrl);
		const { result } = await runAgent({
			input: { config: { model: 'anthropic/claude-sonnet-4' }, prompt: 'hash toolbridge' },
			tools: [inProcessAgentTool(hashTool())],
			callModel: createLangChainModelCaller(viaAdapter.model as LangChainChatModelLike),
		});
		expect(result.output).toBe(nativeItem.json.output);
		const strip = (request: FakeRequest) => request.body.messages;
		expect(roundTrip.requests.map(strip)).toEqual(native.requests.map(strip));
		expect(roundTrip.requests[0].body.tools).toEqual(native.requests[0].body.tools);
	});
});

describe('on an n8n without @n8n/ai-node-sdk (before 2.x)', () => {
	const olderN8n = () =>
		loadAiNodeSdk(() => {
			throw new Error("Cannot find module '@n8n/ai-node-sdk'");
		});

	it('the orchestrator still runs the sub-node natively, each call a run of the sub-node', async () => {
		const fake = await start(respond);
		const sub = chatModelContext({
			baseUrl: fake.baseUrl,
			parameters: { model: { __rl: true, mode: 'id', value: 'old/n8n-model' } },
		});
		const { response } = await supplyToolbridgeChatModel(sub.context, 0, olderN8n);
		const { context } = orchestratorContext({
			items: [{ chatInput: 'hash toolbridge' }],
			model: response,
			tools: [hashTool()],
			credentials: null,
		});
		const [[item]] = await executeOrchestrator(context);
		expect(item.json.output).toBe(`hash: ${sha256('toolbridge')}`);
		expect(fake.requests.map((request) => request.body.model)).toEqual([
			'old/n8n-model',
			'old/n8n-model',
		]);
		expect(sub.traced.map((entry) => entry.kind)).toEqual(['input', 'output', 'input', 'output']);
		expect(JSON.stringify(response)).not.toContain(apiKey);
	});

	it('any other consumer gets AI_NODE_SDK_UNAVAILABLE from every model call', async () => {
		const sub = chatModelContext({ baseUrl: 'http://127.0.0.1:9/v1' });
		const { response } = await supplyToolbridgeChatModel(sub.context, 0, olderN8n);
		const model = response as {
			invoke: () => Promise<unknown>;
			stream: () => Promise<unknown>;
			bindTools: () => unknown;
		};
		await expect(model.invoke()).rejects.toMatchObject({ code: 'AI_NODE_SDK_UNAVAILABLE' });
		await expect(model.stream()).rejects.toMatchObject({ code: 'AI_NODE_SDK_UNAVAILABLE' });
		expect(() => model.bindTools()).toThrow(/works here only under an Agent Orchestrator/);
	});
});
