import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IExecuteFunctions } from 'n8n-workflow';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { readNodeAgentMode } from '../../../src/hosts/n8n/drivers/run-mode-items';
import { runWorkflowAgent } from '../../../src/hosts/standalone/run-workflow-agent';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../support/fake-chat-server';
import { orchestratorType } from '../../support/real-tool-nodes';

const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };
const cryptoAgent = JSON.parse(
	readFileSync(resolve(__dirname, '../../../fixtures/workflows/crypto-agent.json'), 'utf8'),
) as { nodes: Array<Record<string, unknown>> };

/** The crypto-agent fixture with its orchestrator at `typeVersion` and `model` as given. */
function workflowWith(typeVersion: number, model: unknown) {
	const workflow = structuredClone(cryptoAgent);
	const agent = workflow.nodes.find((node) => node.type === orchestratorType)!;
	agent.typeVersion = typeVersion;
	(agent.parameters as Record<string, unknown>).model = model;
	return workflow;
}

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe('AgentOrchestrator versions in the standalone host', () => {
	it.each([
		[
			'1.1 with a resource-locator model (list)',
			1.1,
			{ __rl: true, mode: 'list', value: 'openai/gpt-4.1', cachedResultName: 'OpenAI: GPT-4.1' },
			'openai/gpt-4.1',
		],
		[
			'1.1 with a resource-locator model (by id, an expression)',
			1.1,
			{ __rl: true, mode: 'id', value: '={{ "meta/" + "llama" }}' },
			'meta/llama',
		],
		['1 with a string model', 1, 'openai/gpt-4.1-mini', 'openai/gpt-4.1-mini'],
	])('version %s runs', async (_name, typeVersion, model, sent) => {
		server = await startFakeChatServer({ respond: () => textReply('done') });
		const run = await runWorkflowAgent(workflowWith(typeVersion, model), {
			prompt: 'hi',
			baseUrl: server.baseUrl,
			apiKey: 'sk-or-v1-version-test-key',
			env: {},
			nodeTypes: ownNodeTypes,
		});
		expect(run.mode === 'full' && run.result.output).toBe('done');
		expect(server.requests[0].body.model).toBe(sent);
	});

	it("1.1 without a model parameter uses the resource locator's default", async () => {
		server = await startFakeChatServer({ respond: () => textReply('done') });
		const workflow = workflowWith(1.1, undefined);
		delete (
			workflow.nodes.find((node) => node.type === orchestratorType)!.parameters as Record<
				string,
				unknown
			>
		).model;
		await runWorkflowAgent(workflow, {
			prompt: 'hi',
			baseUrl: server.baseUrl,
			apiKey: 'sk-or-v1-version-test-key',
			env: {},
			nodeTypes: ownNodeTypes,
		});
		expect(server.requests[0].body.model).toBe('anthropic/claude-sonnet-4');
	});
});

describe('an unknown mode', () => {
	it('is the same AGENT_CONFIGURATION error in both hosts, before any model call', async () => {
		server = await startFakeChatServer({ respond: () => textReply('never') });
		const workflow = workflowWith(1.1, 'openai/gpt-4.1');
		const agent = workflow.nodes.find((node) => node.type === orchestratorType)!;
		(agent.parameters as Record<string, unknown>).mode = 'supervisor';
		const expected = {
			code: 'AGENT_CONFIGURATION',
			setting: 'mode',
			message: `Node "${agent.name as string}" has mode "supervisor"; the modes are full, validator, nested.`,
		};
		await expect(
			runWorkflowAgent(workflow, {
				prompt: 'hi',
				baseUrl: server.baseUrl,
				apiKey: 'sk-or-v1-version-test-key',
				env: {},
				nodeTypes: ownNodeTypes,
			}),
		).rejects.toMatchObject(expected);

		const inN8n = {
			getNodeParameter: (name: string, _item: number, fallback: unknown) =>
				name === 'mode' ? 'supervisor' : fallback,
			getNode: () => agent,
		} as unknown as IExecuteFunctions;
		expect(() => readNodeAgentMode(inN8n)).toThrow(expect.objectContaining(expected));
		expect(server.requests).toHaveLength(0);
	});
});

const n8nAgent = JSON.parse(
	readFileSync(resolve(__dirname, '../../../fixtures/workflows/n8n-ai-agent.json'), 'utf8'),
) as { nodes: Array<Record<string, unknown>> };

/** n8n's AI Agent fixture with a Toolbridge Chat Model (these parameters) in place of its OpenRouter Chat Model. */
function agentWithToolbridgeModel(parameters: Record<string, unknown>) {
	const workflow = structuredClone(n8nAgent);
	const model = workflow.nodes.find((node) => node.name === 'OpenRouter Chat Model')!;
	model.type = 'n8n-nodes-toolbridge.toolbridgeChatModel';
	model.typeVersion = 1;
	model.parameters = parameters;
	return workflow;
}

describe("n8n's AI Agent with a Toolbridge Chat Model, in the standalone host", () => {
	it("runs with the sub-node's model (a resource locator), options and credential", async () => {
		server = await startFakeChatServer({
			respond: ({ index }) =>
				index === 0
					? toolCallReply([{ id: 'c1', name: 'Hash_text', arguments: { text: 'abc' } }])
					: textReply('hashed'),
		});
		const workflow = agentWithToolbridgeModel({
			model: { __rl: true, mode: 'list', value: 'openai/gpt-4.1' },
			options: {
				temperature: 0.3,
				maxTokens: 256,
				seed: 7,
				stopSequences: 'END',
				reasoningEffort: 'low',
			},
		});
		const credentials = {
			'OpenRouter account': { apiKey: 'sk-or-v1-agent-model-key', url: server.baseUrl },
		};
		const run = await runWorkflowAgent(workflow, {
			prompt: 'abc',
			credentials,
			env: {},
			nodeTypes: ownNodeTypes,
		});
		expect(run.mode === 'full' && run.result.output).toBe('hashed');
		expect(server.requests[0].headers.authorization).toBe('Bearer sk-or-v1-agent-model-key');
		expect(server.requests[0].body).toMatchObject({
			model: 'openai/gpt-4.1',
			temperature: 0.3,
			max_tokens: 256,
			seed: 7,
			stop: ['END'],
			reasoning_effort: 'low',
			messages: [
				{ role: 'system', content: 'You are a precise assistant. Use the tools for every hash.' },
				{ role: 'user', content: 'Hash this text with SHA-256: abc' },
			],
		});
	});

	it("a Model left at its default (not in the export) is the node's default; --model replaces it", async () => {
		server = await startFakeChatServer({ respond: () => textReply('ok') });
		const credentials = {
			'OpenRouter account': { apiKey: 'sk-or-v1-agent-model-key', url: server.baseUrl },
		};
		await runWorkflowAgent(agentWithToolbridgeModel({}), {
			prompt: 'abc',
			credentials,
			env: {},
			nodeTypes: ownNodeTypes,
		});
		await runWorkflowAgent(agentWithToolbridgeModel({}), {
			prompt: 'abc',
			credentials,
			env: {},
			nodeTypes: ownNodeTypes,
			model: 'openai/gpt-4.1-mini',
		});
		expect(server.requests.map((request) => request.body.model)).toEqual([
			'anthropic/claude-sonnet-4',
			'openai/gpt-4.1-mini',
		]);
	});
});

/** The crypto-agent fixture with a chat-model node of `type` connected to its orchestrator's Chat Model input. */
function orchestratorWithModelNode(type: string, parameters: Record<string, unknown>) {
	const workflow = structuredClone(cryptoAgent) as {
		nodes: Array<Record<string, unknown>>;
		connections: Record<string, unknown>;
	};
	const agent = workflow.nodes.find((node) => node.type === orchestratorType)!;
	(agent.parameters as Record<string, unknown>).options = { temperature: 0.9 };
	workflow.nodes.push({
		id: 'model-1',
		name: 'Chat Model',
		type,
		typeVersion: 1,
		position: [0, 400],
		parameters,
	});
	workflow.connections['Chat Model'] = {
		ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 0 }]],
	};
	return workflow;
}

describe('an Agent Orchestrator with a connected chat model, in the standalone host', () => {
	it('a Toolbridge Chat Model wins over the node’s own model and sampling options', async () => {
		server = await startFakeChatServer({ respond: () => textReply('from the sub-node') });
		const workflow = orchestratorWithModelNode('n8n-nodes-toolbridge.toolbridgeChatModel', {
			authentication: 'openAiCompatibleApi',
			model: { __rl: true, mode: 'id', value: 'sub/model' },
			options: { temperature: 0.4, seed: 5 },
		});
		const run = await runWorkflowAgent(workflow, {
			prompt: 'hi',
			baseUrl: server.baseUrl,
			apiKey: 'sk-sub-node-key-123',
			env: {},
			nodeTypes: ownNodeTypes,
		});
		expect(run.mode === 'full' && run.result.output).toBe('from the sub-node');
		expect(server.requests[0].body).toMatchObject({
			model: 'sub/model',
			temperature: 0.4,
			seed: 5,
		});
	});

	it('n8n’s OpenAI Chat Model: its model and temperature', async () => {
		server = await startFakeChatServer({ respond: () => textReply('ok') });
		const workflow = orchestratorWithModelNode('@n8n/n8n-nodes-langchain.lmChatOpenAi', {
			model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' },
			options: { temperature: 0.1 },
		});
		await runWorkflowAgent(workflow, {
			prompt: 'hi',
			baseUrl: server.baseUrl,
			apiKey: 'sk-openai-key-123',
			env: {},
			nodeTypes: ownNodeTypes,
		});
		expect(server.requests[0].body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.1 });
	});

	it('--base-url over a chat model node other than the built-in ones: the node’s own Model at that endpoint', async () => {
		server = await startFakeChatServer({ respond: () => textReply('routed') });
		const workflow = orchestratorWithModelNode('@n8n/n8n-nodes-langchain.lmChatAnthropic', {
			model: 'claude-sonnet-4-5',
		});
		const run = await runWorkflowAgent(workflow, {
			prompt: 'hi',
			baseUrl: server.baseUrl,
			apiKey: 'sk-key-123456',
			env: {},
			nodeTypes: ownNodeTypes,
		});
		expect(run.mode === 'full' && run.result.output).toBe('routed');
		expect(server.requests[0].body).toMatchObject({
			model: 'openai/gpt-4.1-mini',
			temperature: 0.9,
		});
	});
});
