/**
 * n8n's vector stores as tools in the standalone host: the In-Memory Vector Store in "retrieve
 * as tool" mode and the Vector Store Tool (a store in "retrieve" mode plus a chat model), both
 * with Embeddings OpenAI and the OpenAI Chat Model pointed at a loopback OpenAI-compatible fake
 * through their credential's base URL. Documents are inserted by an n8n run first, then found
 * by the tool; schema and answers are n8n's own. A server-backed store (Qdrant) whose server is
 * unreachable fails with a clear error naming the node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import type { FakeChatServer } from '../../../support/fake-chat-server';
import { startFakeOpenAiApi } from '../../../support/fake-openai-api';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { insertDocuments } from './insert-documents';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const openAi = { openAiApi: { id: 'o', name: 'OpenAI fake' } };
const memoryKey = { __rl: true, mode: 'list', value: 'facts' };
const documents = [
	'The capital of France is Paris.',
	'Bananas are a yellow fruit.',
	'Zebras have black and white stripes.',
];

let api: FakeChatServer;
let host: StandaloneHost;

beforeAll(async () => {
	// The chat model answers with what the chain gave it as context, so the test sees the retrieval.
	api = await startFakeOpenAiApi({
		answer: (request) =>
			`Context seen: ${JSON.stringify(request.body.messages).includes('Bananas are a yellow fruit') ? 'bananas' : 'none'}`,
	});
	host = await StandaloneHost.create({
		credentials: {
			'OpenAI fake': { apiKey: 'sk-fake-embeddings-key', url: api.baseUrl },
			'Qdrant nowhere': { qdrantUrl: 'http://127.0.0.1:9', apiKey: '' },
		},
		env: {},
	});
	const inserted = await insertDocuments(
		host,
		langChainNode('Facts', 'vectorStoreInMemory', 1.3, { memoryKey }),
		langChainNode('Embeddings', 'embeddingsOpenAi', 1.2, { options: {} }, openAi),
		documents,
	);
	expect(inserted).toBe(3);
});

afterAll(() => api.close());

const workflow = agentWorkflow(
	'Knowledge',
	[
		langChainNode('Facts search', 'vectorStoreInMemory', 1.3, {
			mode: 'retrieve-as-tool',
			toolDescription: 'Search the facts',
			memoryKey,
			topK: 1,
		}),
		langChainNode('Ask the facts', 'toolVectorStore', 1.1, {
			description: 'facts about fruit, cities and animals',
			topK: 1,
		}),
	],
	[
		langChainNode('Embeddings A', 'embeddingsOpenAi', 1.2, { options: {} }, openAi),
		langChainNode('Facts store', 'vectorStoreInMemory', 1.3, { mode: 'retrieve', memoryKey }),
		langChainNode('Embeddings B', 'embeddingsOpenAi', 1.2, { options: {} }, openAi),
		langChainNode(
			'Chat model',
			'lmChatOpenAi',
			1.3,
			{
				model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' },
				responsesApiEnabled: false,
				options: {},
			},
			openAi,
		),
	],
	[
		{ from: 'Embeddings A', to: 'Facts search', type: 'ai_embedding' },
		{ from: 'Facts store', to: 'Ask the facts', type: 'ai_vectorStore' },
		{ from: 'Embeddings B', to: 'Facts store', type: 'ai_embedding' },
		{ from: 'Chat model', to: 'Ask the facts', type: 'ai_languageModel' },
	],
);

describe('vector stores as tools', () => {
	it("have the schema n8n's AI Agent gives the model", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(reference.tools).toHaveLength(2);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		expect(loaded.tools[0].parameters).toMatchObject({
			properties: { input: { type: 'string', description: 'Query to search for. Required' } },
			required: ['input'],
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it('the In-Memory store finds the inserted document (embeddings from the loopback API), as n8n does', async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		const search = loaded.tools.find((tool) => tool.sourceNodeName === 'Facts search')!;
		const before = api.requests.length;
		const observation = await search.invoke({ input: 'yellow bananas' }, { toolCallId: 's' });
		expect(observation.isError).toBe(false);
		// n8n's store answers the found documents as content blocks in JSON text: the model reads that text.
		const theirs = await reference.tools
			.find((tool) => tool.sourceNodeName === 'Facts search')!
			.tool.invoke({ input: 'yellow bananas' });
		expect(observation.content).toBe(theirs);
		const blocks = JSON.parse(observation.content) as Array<{ type: string; text: string }>;
		expect(blocks.map((block) => JSON.parse(block.text).pageContent)).toEqual([
			'Bananas are a yellow fruit.',
		]);
		expect(api.requests.slice(before).map((request) => request.path)).toEqual([
			'/v1/embeddings',
			'/v1/embeddings',
		]);
		expect(api.requests.at(-1)?.headers.authorization).toBe('Bearer sk-fake-embeddings-key');
		await Promise.all([loaded.close(), reference.close()]);
	});

	it('the Vector Store Tool retrieves with its store and answers with its chat model', async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const ask = loaded.tools.find((tool) => tool.sourceNodeName === 'Ask the facts')!;
		const before = api.requests.length;
		const observation = await ask.invoke({ input: 'Which fruit is yellow?' }, { toolCallId: 'a' });
		expect(observation).toMatchObject({ isError: false });
		expect(observation.content).toContain('Context seen: bananas');
		expect(api.requests.slice(before).map((request) => request.path)).toEqual([
			'/v1/embeddings',
			'/v1/chat/completions',
		]);
		await loaded.close();
	});

	it('a Qdrant store whose server is unreachable fails with a clear error naming the node', async () => {
		const qdrant = agentWorkflow(
			'Qdrant',
			[
				langChainNode(
					'Qdrant search',
					'vectorStoreQdrant',
					1.3,
					{
						mode: 'retrieve-as-tool',
						toolDescription: 'Search Qdrant',
						qdrantCollection: { __rl: true, mode: 'id', value: 'docs' },
					},
					{ qdrantApi: { id: 'q', name: 'Qdrant nowhere' } },
				),
				langChainNode('Ask Qdrant', 'toolVectorStore', 1.1, { description: 'qdrant facts' }),
			],
			[
				langChainNode('Embeddings Q', 'embeddingsOpenAi', 1.2, { options: {} }, openAi),
				langChainNode(
					'Qdrant store',
					'vectorStoreQdrant',
					1.3,
					{ mode: 'retrieve', qdrantCollection: { __rl: true, mode: 'id', value: 'docs' } },
					{ qdrantApi: { id: 'q', name: 'Qdrant nowhere' } },
				),
				langChainNode('Embeddings R', 'embeddingsOpenAi', 1.2, { options: {} }, openAi),
				langChainNode(
					'Chat model',
					'lmChatOpenAi',
					1.3,
					{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
					openAi,
				),
			],
			[
				{ from: 'Embeddings Q', to: 'Qdrant search', type: 'ai_embedding' },
				{ from: 'Qdrant store', to: 'Ask Qdrant', type: 'ai_vectorStore' },
				{ from: 'Embeddings R', to: 'Qdrant store', type: 'ai_embedding' },
				{ from: 'Chat model', to: 'Ask Qdrant', type: 'ai_languageModel' },
			],
		);
		const loaded = await loadWorkflowTools(qdrant, { host, skipUnavailable: true });
		// A store used as a tool connects when called: the call is the error, naming the node and why.
		const search = loaded.tools.find((tool) => tool.sourceNodeName === 'Qdrant search')!;
		expect(await search.invoke({ input: 'anything' }, { toolCallId: 'q' })).toEqual({
			content: 'Error: node "Qdrant search" failed: fetch failed (bad port)',
			isError: true,
		});
		// A Vector Store Tool over it connects when supplied: it is unavailable, named with n8n's reason.
		const unavailable = loaded.unavailable.map((tool) => [tool.nodeName, tool.reason]);
		expect(unavailable).toContainEqual(['Ask Qdrant', 'SUPPLY_FAILED']);
		expect(loaded.unavailable.find((tool) => tool.nodeName === 'Ask Qdrant')?.message).toMatch(
			/^"Ask Qdrant" \(@n8n\/n8n-nodes-langchain\.toolVectorStore\): n8n's node could not supply its tool: /,
		);
		await loaded.close();
	});
});
