/**
 * n8n's MCP Client Tool in the standalone host, against our own `toolbridge mcp --http` (a real
 * CLI process serving the Crypto tools of a workflow): n8n's node connects to the server it
 * names, exposes that server's tools with n8n's names and schemas, and a call runs the remote
 * tool. n8n's node speaks Streamable HTTP and SSE only — it has no stdio transport.
 */
import { createHash } from 'node:crypto';
import { loadWorkflowTools, StandaloneHost, type WorkflowExport } from 'n8n-nodes-toolbridge';
import type { INode, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { n8nAgentTools, toolFaces } from '../../../../test/support/n8n-agent-reference';
import { startToolbridgeServer, type ToolbridgeServer } from '../support/toolbridge-process';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
let server: ToolbridgeServer;
let host: StandaloneHost;
let workflow: WorkflowExport;

beforeAll(async () => {
	server = await startToolbridgeServer([
		'mcp',
		'fixtures/workflows/crypto-agent.json',
		'--http',
		'127.0.0.1:0',
	]);
	host = await StandaloneHost.create({ env: {} });
	const node = (
		name: string,
		type: string,
		typeVersion: number,
		parameters: INodeParameters,
	): INode => ({
		id: name,
		name,
		type,
		typeVersion,
		position: [0, 0] as [number, number],
		parameters,
	});
	workflow = {
		name: 'MCP client',
		nodes: [
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 1.7, { options: {} }),
			node('Crypto server', '@n8n/n8n-nodes-langchain.mcpClientTool', 1.2, {
				endpointUrl: `${server.url}/mcp`,
				serverTransport: 'httpStreamable',
				authentication: 'none',
				include: 'all',
				options: {},
			}),
		],
		connections: {
			'Crypto server': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}, 90_000);

afterAll(async () => {
	await server?.stop();
});

describe("n8n's MCP Client Tool against toolbridge mcp --http", () => {
	it("exposes the server's tools with the names and schemas n8n's AI Agent gives the model", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(loaded.tools.map((tool) => [tool.name, tool.sourceNodeName])).toEqual([
			['Crypto_server_Hash_text', 'Crypto server'],
			['Crypto_server_MD5_text', 'Crypto server'],
		]);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		expect(loaded.tools[0].parameters).toMatchObject({
			properties: { text: { type: 'string' } },
			required: ['text'],
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it('a call runs the remote tool (the real Crypto node behind toolbridge mcp) and answers as n8n does', async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		const observation = await loaded.tools[0].invoke({ text: 'hello' }, { toolCallId: 'mcp' });
		expect(observation.isError).toBe(false);
		expect(observation.content).toBe(await reference.tools[0].tool.invoke({ text: 'hello' }));
		expect(observation.content).toContain(sha256('hello'));
		await Promise.all([loaded.close(), reference.close()]);
	});

	it("a server that is not there: the tool is unavailable, named with n8n's reason", async () => {
		const gone = structuredClone(workflow);
		gone.nodes[1].parameters.endpointUrl = 'http://127.0.0.1:1/mcp';
		const loaded = await loadWorkflowTools(gone, { host, skipUnavailable: true });
		expect(loaded.tools).toEqual([]);
		expect(loaded.unavailable).toEqual([
			expect.objectContaining({
				nodeName: 'Crypto server',
				reason: 'SUPPLY_FAILED',
				message: expect.stringMatching(
					/^"Crypto server" \(@n8n\/n8n-nodes-langchain\.mcpClientTool\): n8n's node could not supply its tool: /,
				),
			}),
		]);
	});
});
