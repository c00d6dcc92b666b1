/**
 * n8n's PGVector store as a tool against a real Postgres server with pgvector: PGlite (Postgres
 * 17 in WebAssembly) with its pgvector extension behind its Postgres wire-protocol socket server
 * on loopback, all from npm (Debian's Postgres has no pgvector). n8n's node talks to it through
 * `pg` with a `postgres` credential: documents inserted by an n8n run are found by the tool.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import type { FakeChatServer } from '../../../support/fake-chat-server';
import { startFakeOpenAiApi } from '../../../support/fake-openai-api';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { insertDocuments } from './insert-documents';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const openAi = { openAiApi: { id: 'o', name: 'OpenAI fake' } };
const postgres = { postgres: { id: 'p', name: 'Vectors DB' } };
const table = { tableName: 'facts_vectors', options: {} };

let database: PGlite;
let server: PGLiteSocketServer;
let api: FakeChatServer;
let host: StandaloneHost;

beforeAll(async () => {
	const { PGlite } = await import('@electric-sql/pglite');
	const { vector } = await import('@electric-sql/pglite-pgvector');
	const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
	database = await PGlite.create({ extensions: { vector } });
	await database.exec('CREATE EXTENSION IF NOT EXISTS vector;');
	server = new PGLiteSocketServer({ db: database, port: 0, host: '127.0.0.1', maxConnections: 20 });
	await server.start();
	api = await startFakeOpenAiApi();
	const port = Number(server.getServerConn().split(':').at(-1));
	host = await StandaloneHost.create({
		credentials: {
			'OpenAI fake': { apiKey: 'sk-fake', url: api.baseUrl },
			'Vectors DB': {
				host: '127.0.0.1',
				port,
				database: 'postgres',
				user: 'postgres',
				password: 'postgres',
				ssl: 'disable',
				allowUnauthorizedCerts: false,
				maxConnections: 5,
			},
		},
		env: {},
	});
	const inserted = await insertDocuments(
		host,
		langChainNode('Facts table', 'vectorStorePGVector', 1.3, table, postgres),
		langChainNode('Embeddings', 'embeddingsOpenAi', 1.2, { options: {} }, openAi),
		['The capital of France is Paris.', 'Bananas are a yellow fruit.', 'Zebras have stripes.'],
	);
	expect(inserted).toBe(3);
}, 60_000);

afterAll(async () => {
	await server?.stop();
	await database?.close();
	await api?.close();
});

describe('PGVector as a tool (real Postgres wire protocol, pgvector)', () => {
	it('the rows are in the table; the tool finds the one that matches, as n8n does', async () => {
		const { rows } = await database.query<{ count: number }>(
			'select count(*)::int as count from facts_vectors',
		);
		expect(rows[0].count).toBe(3);
		const workflow = agentWorkflow(
			'Facts in Postgres',
			[
				langChainNode(
					'Facts search',
					'vectorStorePGVector',
					1.3,
					{ ...table, mode: 'retrieve-as-tool', toolDescription: 'Search the facts', topK: 1 },
					postgres,
				),
			],
			[langChainNode('Embeddings', 'embeddingsOpenAi', 1.2, { options: {} }, openAi)],
			[{ from: 'Embeddings', to: 'Facts search', type: 'ai_embedding' }],
		);
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		const [tool] = loaded.tools;
		const observation = await tool.invoke({ input: 'zebra stripes' }, { toolCallId: 'pg' });
		expect(observation.isError).toBe(false);
		expect(observation.content).toBe(
			await reference.tools[0].tool.invoke({ input: 'zebra stripes' }),
		);
		const blocks = JSON.parse(observation.content) as Array<{ text: string }>;
		expect(blocks.map((block) => JSON.parse(block.text).pageContent)).toEqual([
			'Zebras have stripes.',
		]);
		await Promise.all([loaded.close(), reference.close()]);
	});

	it('a Postgres server that is not there: a clear error naming the node', async () => {
		const nowhere = await StandaloneHost.create({
			credentials: {
				'OpenAI fake': { apiKey: 'sk-fake', url: api.baseUrl },
				'Vectors DB': {
					host: '127.0.0.1',
					port: 1,
					database: 'postgres',
					user: 'postgres',
					password: 'postgres',
					ssl: 'disable',
					allowUnauthorizedCerts: false,
					maxConnections: 1,
				},
			},
			env: {},
		});
		const workflow = agentWorkflow(
			'Postgres down',
			[
				langChainNode(
					'Facts search',
					'vectorStorePGVector',
					1.3,
					{ ...table, mode: 'retrieve-as-tool', toolDescription: 'Search the facts' },
					postgres,
				),
			],
			[langChainNode('Embeddings', 'embeddingsOpenAi', 1.2, { options: {} }, openAi)],
			[{ from: 'Embeddings', to: 'Facts search', type: 'ai_embedding' }],
		);
		const loaded = await loadWorkflowTools(workflow, { host: nowhere });
		const observation = await loaded.tools[0].invoke({ input: 'x' }, { toolCallId: 'down' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(
			/^Error: node "Facts search" failed: .*(refused|ECONNREFUSED)/i,
		);
		await loaded.close();
	});
});
