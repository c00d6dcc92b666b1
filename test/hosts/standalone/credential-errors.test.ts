/**
 * Every credential error of a node run names the node, the credential and its type — also
 * where n8n-core refuses before asking the credentials helper (`Credentials not found`, `Node
 * does not have any credentials set`: the node references no credential of the type it asks
 * for), and for a sub-node's supplied tool (the helper alone would name the agent). Real nodes:
 * n8n's HTTP Request tool and the Milvus Vector Store as a tool; nothing is contacted.
 */
import type { INode } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../src/hosts/standalone/standalone-host';
import { agentWorkflow, langChainNode } from './sub-nodes/sub-node-workflows';

let host: StandaloneHost;

beforeAll(async () => {
	host = await StandaloneHost.create({
		credentials: { 'OpenAI account': { apiKey: 'sk-unused', url: 'http://127.0.0.1:9/v1' } },
		env: {},
	});
});

async function callOnlyTool(
	nodes: INode[],
	others: INode[] = [],
	args: Record<string, unknown> = {},
) {
	const links = others.map((other) => ({
		from: other.name,
		to: nodes[0].name,
		type: 'ai_embedding',
	}));
	const loaded = await loadWorkflowTools(agentWorkflow('Credentials', nodes, others, links), {
		host,
	});
	try {
		return await loaded.tools[0].invoke(args, { toolCallId: 'c' });
	} finally {
		await loaded.close();
	}
}

const milvus = (credentials?: INode['credentials']) =>
	langChainNode(
		'Milvus knowledge',
		'vectorStoreMilvus',
		1.3,
		{
			mode: 'retrieve-as-tool',
			toolDescription: 'Search the knowledge base',
			milvusCollection: { __rl: true, mode: 'list', value: 'knowledge' },
		},
		credentials,
	);
const embeddings = langChainNode(
	'Embeddings',
	'embeddingsOpenAi',
	1.2,
	{ options: {} },
	{
		openAiApi: { id: 'o', name: 'OpenAI account' },
	},
);

describe('credential errors name the node, the credential and its type', () => {
	it("HTTP Request tool with header auth but no credential on the node (n8n: 'Credentials not found')", async () => {
		const fetch: INode = {
			id: 'fetch',
			name: 'Fetch page',
			type: 'n8n-nodes-base.httpRequestTool',
			typeVersion: 4.2,
			position: [0, 0],
			parameters: {
				toolDescription: 'Fetches a page',
				url: "={{ $fromAI('url', 'The page', 'string') }}",
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				options: {},
			},
		};
		const observation = await callOnlyTool([fetch], [], { url: 'http://127.0.0.1:9/' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain(
			'Node "Fetch page" (n8n-nodes-base.httpRequestTool) asked for a credential of type httpHeaderAuth, which the node does not reference in the workflow (n8n: "Credentials not found")',
		);
	});

	it("a supplied tool's node with no credential set (n8n: 'Node does not have any credentials set')", async () => {
		const observation = await callOnlyTool([milvus()], [embeddings], { input: 'refunds' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain(
			'Node "Milvus knowledge" (@n8n/n8n-nodes-langchain.vectorStoreMilvus) asked for a credential of type milvusApi, which the node does not reference in the workflow (n8n: "Node does not have any credentials set")',
		);
	});

	it("a supplied tool's credential that was not supplied names that node, not its agent", async () => {
		const observation = await callOnlyTool(
			[milvus({ milvusApi: { id: 'm', name: 'Milvus account' } })],
			[embeddings],
			{ input: 'refunds' },
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain(
			'Node "Milvus knowledge" needs credential "Milvus account" (type milvusApi), which was not supplied',
		);
		expect(observation.content).not.toContain('AI Agent');
	});
});
