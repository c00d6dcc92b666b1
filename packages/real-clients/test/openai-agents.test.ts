/**
 * The OpenAI Agents SDK running an agent whose model is `toolbridge serve`'s Responses API:
 * the workflow's tools run on the server and come back as hosted tool calls (mcp_call), so the
 * SDK runs nothing itself. Its tracing (which would export to OpenAI) is off.
 */
import OpenAI from 'openai';
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	agentModel,
	hashAnswer,
	serveToken,
	sha256,
	startHashingServe,
	type HashingServe,
} from '../../n8n-toolbridge/test/support/hashing-serve';

setTracingDisabled(true);

describe('@openai/agents with toolbridge serve as its model', () => {
	let serve: HashingServe;
	let runner: Runner;
	const agent = new Agent({
		name: 'Hasher',
		instructions: 'Hash what you are asked to.',
		model: agentModel,
	});

	beforeAll(async () => {
		serve = await startHashingServe();
		const client = new OpenAI({ baseURL: serve.baseURL, apiKey: serveToken, maxRetries: 0 });
		runner = new Runner({
			modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }),
		});
	}, 120_000);

	afterAll(async () => {
		expect(await serve?.stop()).toBe(0);
	});

	it('run(): the final output, the server-side tool call as a hosted tool call, usage', async () => {
		const result = await runner.run(agent, 'Hash "agents"');
		expect(result.finalOutput).toBe(hashAnswer('agents'));
		expect(result.newItems.map((item) => item.type)).toEqual([
			'tool_call_item',
			'message_output_item',
		]);
		// The SDK names a hosted MCP call "mcp_call" and keeps our item as its provider data.
		expect(result.newItems[0].rawItem).toMatchObject({
			type: 'hosted_tool_call',
			name: 'mcp_call',
			status: 'completed',
			output: JSON.stringify([{ hash: sha256('agents') }]),
			providerData: { type: 'mcp_call', server_label: 'toolbridge', name: 'Hash_text' },
		});
		expect(result.state.usage.totalTokens).toBeGreaterThan(0);
		expect(result.lastResponseId).toMatch(/^resp_/);
		// The request's instructions were ignored: the workflow's system message was sent.
		const sent = serve.model.requests.at(-2)!.body.messages;
		expect(sent[0].content).toMatch(/^You hash texts with the tools/);
	});

	it('run() streamed: the text as it comes, then the same final output', async () => {
		const result = await runner.run(agent, 'Hash "streamed"', { stream: true });
		let text = '';
		for await (const delta of result.toTextStream()) text += delta;
		await result.completed;
		expect(text).toBe(hashAnswer('streamed'));
		expect(result.finalOutput).toBe(hashAnswer('streamed'));
	});

	it('a second turn: by previousResponseId, and by the first run’s history', async () => {
		const first = await runner.run(agent, 'Hash "first"');
		const byId = await runner.run(agent, 'Hash "second"', {
			previousResponseId: first.lastResponseId,
		});
		expect(byId.finalOutput).toBe(hashAnswer('second'));
		expect(serve.model.requests.at(-2)!.body.messages.slice(1, 3)).toEqual([
			{ role: 'user', content: 'Hash "first"' },
			{ role: 'assistant', content: hashAnswer('first') },
		]);
		const byHistory = await runner.run(agent, [
			...first.history,
			{ role: 'user', content: 'Hash "third"' },
		]);
		expect(byHistory.finalOutput).toBe(hashAnswer('third'));
		expect(serve.model.requests.at(-2)!.body.messages.slice(1, 3)).toEqual([
			{ role: 'user', content: 'Hash "first"' },
			{ role: 'assistant', content: hashAnswer('first') },
		]);
	});
});
