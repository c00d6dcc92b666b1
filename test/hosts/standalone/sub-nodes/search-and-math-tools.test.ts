/**
 * n8n's LangChain tool sub-nodes in the standalone host — Calculator, Think, Wikipedia, SerpAPI:
 * their real node code supplies the tool (n8n's `supplyData`), the model gets exactly the schema
 * n8n's own AI Agent gives it (compared with n8n's `getConnectedTools` + `convertToOpenAITool`),
 * and a call answers what n8n's own supplied tool answers. Wikipedia's and SerpApi's hosts are
 * intercepted with nock; nothing else leaves the machine.
 */
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const serpApiKey = 'serp-test-key-0123456789';

const workflow: WorkflowExport = agentWorkflow('Search and math', [
	langChainNode('Calculator', 'toolCalculator', 1),
	langChainNode('Think', 'toolThink', 1.1),
	langChainNode('Wikipedia', 'toolWikipedia', 1),
	{
		...langChainNode('SerpAPI', 'toolSerpApi', 1, { options: { gl: 'fr' } }),
		credentials: { serpApi: { id: 's1', name: 'SerpAPI account' } },
	},
]);

let host: StandaloneHost;

beforeAll(async () => {
	host = await StandaloneHost.create({
		credentials: { 'SerpAPI account': { apiKey: serpApiKey } },
		env: {},
	});
	nock.disableNetConnect();
	nock.enableNetConnect('127.0.0.1');
	nock('https://en.wikipedia.org')
		.persist()
		.get('/w/api.php')
		.query((query) => query.list === 'search')
		.reply(200, { query: { search: [{ title: 'Ada Lovelace' }] } });
	nock('https://en.wikipedia.org')
		.persist()
		.get('/w/api.php')
		.query((query) => query.prop === 'extracts')
		.reply(200, {
			query: { pages: { 1: { extract: 'Ada Lovelace was an English mathematician.' } } },
		});
	nock('https://serpapi.com')
		.persist()
		.get('/search')
		.query((query) => query.api_key === serpApiKey && query.gl === 'fr')
		.reply(200, (uri) => ({
			answer_box: { answer: `answer for ${new URL(uri, 'https://x').searchParams.get('q')}` },
		}));
});

afterAll(() => {
	nock.cleanAll();
	nock.enableNetConnect();
});

describe('Calculator, Think, Wikipedia and SerpAPI as tools', () => {
	it("each tool has the name, description and JSON Schema n8n's AI Agent gives the model", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		const ours = Object.fromEntries(loaded.tools.map((tool) => [tool.sourceNodeName, tool]));
		expect(Object.keys(ours).sort()).toEqual(['Calculator', 'SerpAPI', 'Think', 'Wikipedia']);
		for (const tool of loaded.tools)
			expect(tool.nodeType).toBe(
				workflow.nodes.find((node) => node.name === tool.sourceNodeName)?.type,
			);
		// A string-input LangChain tool: one `input` string, nothing required (n8n's schema as is).
		expect(ours.Calculator!).toMatchObject({
			name: 'Calculator',
			parameters: {
				type: 'object',
				properties: { input: { type: 'string' } },
				additionalProperties: false,
			},
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it("a call answers what n8n's own tool answers", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		const cases: Record<string, Record<string, unknown>> = {
			Calculator: { input: '2+2*3' },
			Think: { input: 'First add, then multiply.' },
			Wikipedia: { input: 'Ada Lovelace' },
			SerpAPI: { input: 'capital of France' },
		};
		const answers: Record<string, string> = {};
		for (const [nodeName, args] of Object.entries(cases)) {
			const ours = loaded.tools.find((tool) => tool.sourceNodeName === nodeName)!;
			const theirs = reference.tools.find((tool) => tool.sourceNodeName === nodeName)!;
			const observation = await ours.invoke(args, { toolCallId: nodeName });
			expect(observation.isError).toBe(false);
			expect(observation.content).toBe(await theirs.tool.invoke(args));
			answers[nodeName] = observation.content;
		}
		expect(answers).toEqual({
			Calculator: '8',
			Think: 'First add, then multiply.',
			Wikipedia: 'Page: Ada Lovelace\nSummary: Ada Lovelace was an English mathematician.',
			SerpAPI: 'answer for capital of France',
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it("arguments of the wrong type are an error observation naming the problem, never a throw; n8n's own answers stay as they are", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const calculator = loaded.tools.find((tool) => tool.name === 'Calculator')!;
		const wrongType = await calculator.invoke({ input: 42 }, { toolCallId: 'bad' });
		expect(wrongType.isError).toBe(true);
		expect(wrongType.content).toMatch(/^Error: .*schema/i);
		// n8n's Calculator answers an expression it cannot read with a sentence, not an error.
		expect(await calculator.invoke({ input: '2 +* (' }, { toolCallId: 'nonsense' })).toEqual({
			content: "I don't know how to do that.",
			isError: false,
		});
		await loaded.close();
	});
});
