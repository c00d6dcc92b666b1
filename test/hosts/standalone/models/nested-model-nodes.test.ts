/**
 * A chat-model node supplied by its own code beyond n8n's outermost AI Agent: under the Agent
 * Orchestrator (its Chat Model input, full mode; `--model` over it refused) and under n8n's AI
 * Agent Tool used as a tool of another agent (its own model node supplied in its own run). The
 * models: n8n's Ollama Chat Model (a loopback fake of /api/chat, NDJSON) and DeepSeek Chat Model
 * (a loopback fake of Chat Completions).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IConnections, INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../../support/fake-chat-server';
import { orchestratorType } from '../../../support/real-tool-nodes';
import { modelNode, shoutTool } from './model-agent-workflow';

const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };
const line = (message: object, done = false) =>
	`${JSON.stringify({ model: 'llama3.2', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', ...message }, done, ...(done ? { done_reason: 'stop', prompt_eval_count: 10, eval_count: 3 } : {}) })}\n`;

/** An Ollama fake: the first call of each conversation asks for `tool` with `args`, then it answers with the tool's result. */
function ollamaFake(tool: string, args: object): Promise<FakeChatServer> {
	return startFakeChatServer({
		respond: ({ body }) => {
			const result = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			const lines = result
				? [line({ content: `ollama: ${result.content}` }), line({ content: '' }, true)]
				: [
						line({ content: '', tool_calls: [{ function: { name: tool, arguments: args } }] }),
						line({ content: '' }, true),
					];
			return { rawSse: lines.join(''), headers: { 'Content-Type': 'application/x-ndjson' } };
		},
	});
}

let ollama: FakeChatServer;
let deepSeek: FakeChatServer;
beforeAll(async () => {
	ollama = await ollamaFake('Hash_text', { text: 'abc' });
	deepSeek = await startFakeChatServer({
		respond: ({ body }) => {
			const result = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return result
				? textReply(`outer: ${result.content}`)
				: toolCallReply([{ name: 'Helper', arguments: { Prompt__User_Message_: 'shout hi' } }]);
		},
	});
});
afterAll(async () => {
	await Promise.all([ollama.close(), deepSeek.close()]);
});

const ollamaNode = (name: string) =>
	modelNode(
		name,
		'lmChatOllama',
		1,
		{ model: 'llama3.2', options: {} },
		{ ollamaApi: { id: 'o', name: 'Local Ollama' } },
	);

/** The crypto-agent fixture's Agent Orchestrator with n8n's Ollama Chat Model on its Chat Model input. */
function orchestratorOnOllama(): WorkflowExport {
	const workflow = JSON.parse(
		readFileSync(resolve(__dirname, '../../../../fixtures/workflows/crypto-agent.json'), 'utf8'),
	) as WorkflowExport;
	workflow.nodes.push(ollamaNode('Ollama Chat Model'));
	workflow.connections['Ollama Chat Model'] = {
		ai_languageModel: [[{ node: 'Agent Orchestrator', type: 'ai_languageModel', index: 0 }]],
	};
	return workflow;
}

describe('chat-model nodes through their own code, beyond the outermost AI Agent', () => {
	it('the Agent Orchestrator runs on its connected Ollama Chat Model: the tool once, the answer', async () => {
		const before = ollama.requests.length;
		const run = await runWorkflowAgent(orchestratorOnOllama(), {
			prompt: 'hash abc',
			credentials: { 'Local Ollama': { baseUrl: ollama.baseUrl.replace(/\/v1$/, '') } },
			env: {},
			nodeTypes: ownNodeTypes,
		});
		if (run.mode !== 'full') throw new Error('expected a full run');
		expect(run.result.output).toMatch(
			/^ollama: .*ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad/,
		);
		expect(run.result.steps.map((step) => step.tool)).toEqual(['Hash_text']);
		expect(run.modelNode?.name).toBe('Ollama Chat Model');
		const requests = ollama.requests.slice(before);
		expect(requests.map((request) => request.path)).toEqual(['/api/chat', '/api/chat']);
		expect(requests[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'hash abc' });
	}, 60_000);

	it('--model over it is refused: the node decides its model', async () => {
		const before = ollama.requests.length;
		const error = await runWorkflowAgent(orchestratorOnOllama(), {
			prompt: 'hash abc',
			model: 'other/model',
			credentials: { 'Local Ollama': { baseUrl: ollama.baseUrl.replace(/\/v1$/, '') } },
			env: {},
			nodeTypes: ownNodeTypes,
		}).catch((caught: unknown) => caught);
		expect(error).toMatchObject({ code: 'AGENT_CONFIGURATION', setting: 'model' });
		expect((error as Error).message).toContain(
			'--model cannot replace the model of Agent Orchestrator',
		);
		expect(ollama.requests.length).toBe(before);
	}, 60_000);

	it("n8n's AI Agent Tool supplies its own model node in its own run (outer agent on DeepSeek)", async () => {
		const shoutFake = await ollamaFake('Shout', { input: 'hi' });
		try {
			const outer: INode = {
				id: 'agent',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 2.2,
				position: [0, 0],
				parameters: { options: {} },
			};
			const helper: INode = {
				id: 'helper',
				name: 'Helper',
				type: '@n8n/n8n-nodes-langchain.agentTool',
				typeVersion: 3,
				position: [0, 0],
				parameters: {
					toolDescription: 'Shouts things',
					text: "={{ $fromAI('Prompt__User_Message_', 'what to shout', 'string') }}",
					options: { systemMessage: 'You shout with your tool.' },
				},
			};
			const innerModel = modelNode(
				'Inner Ollama',
				'lmChatOllama',
				1,
				{ model: 'llama3.2', options: {} },
				{ ollamaApi: { id: 'i', name: 'Inner Ollama account' } },
			);
			const outerModel = modelNode(
				'Outer DeepSeek',
				'lmChatDeepSeek',
				1,
				{ model: 'deepseek-chat', options: {} },
				{ deepSeekApi: { id: 'd', name: 'DeepSeek account' } },
			);
			const connections: IConnections = {
				'Outer DeepSeek': {
					ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
				},
				Helper: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				'Inner Ollama': {
					ai_languageModel: [[{ node: 'Helper', type: 'ai_languageModel', index: 0 }]],
				},
				Shout: { ai_tool: [[{ node: 'Helper', type: 'ai_tool', index: 0 }]] },
			};
			const run = await runWorkflowAgent(
				{ nodes: [outer, helper, innerModel, outerModel, shoutTool], connections },
				{
					prompt: 'get something shouted',
					credentials: {
						'DeepSeek account': { apiKey: 'sk-outer', url: deepSeek.baseUrl },
						'Inner Ollama account': { baseUrl: shoutFake.baseUrl.replace(/\/v1$/, '') },
					},
					env: {},
				},
			);
			if (run.mode !== 'full') throw new Error('expected a full run');
			expect(run.result.output).toBe(
				`outer: ${JSON.stringify([{ output: 'ollama: SHOUTED: HI' }])}`,
			);
			expect(shoutFake.requests.map((request) => request.path)).toEqual(['/api/chat', '/api/chat']);
			expect(shoutFake.requests[0].body.messages).toEqual([
				{ role: 'system', content: 'You shout with your tool.' },
				{ role: 'user', content: 'shout hi' },
			]);
		} finally {
			await shoutFake.close();
		}
	}, 60_000);
});
