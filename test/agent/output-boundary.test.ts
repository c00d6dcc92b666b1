/**
 * The output cap at the agent's output boundary: every text the model reads from a tool —
 * its output, its error (thrown, returned, or a real node's), a nested agent's answer — is
 * cut to the run's `maxOutputLength` with the `[Output truncated …]` note, in every driver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { runValidator } from '../../src/agent/modes/validator/run-validator';
import { runAgent } from '../../src/agent/run-agent';
import { loadWorkflowTools } from '../../src/hosts/standalone/load-workflow-tools';
import { OutputBoundary } from '../../src/agent/output-boundary';
import { runWorkflowAgent } from '../../src/hosts/standalone/run-workflow-agent';
import { StandaloneHost } from '../../src/hosts/standalone/standalone-host';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import type { AgentTool } from '../../src/tools/agent-tool';
import { agentToolFromLangChain } from '../../src/tools/agent-tool-from-langchain';
import { createNestedAgentTool } from '../../src/tools/create-nested-agent-tool';
import { nestedAgentToolSpec } from '../../src/tools/nested-agent-tool-spec';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeRequest,
} from '../support/fake-chat-server';
import { orchestratorType } from '../support/real-tool-nodes';
import { orchestratorNode, runEngineWorkflow } from '../hosts/n8n/engine-workflow';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';

/** This package's node, for the standalone host (the CLI passes the same). */
const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };

const megabyte = 1_000_000;
const big = (label: string, size = megabyte) => `${label} ${'x'.repeat(size)}`;
/** What the loopback server sends: smaller than a megabyte (n8n's HTTP Request node takes ~3 s to turn 1 MB into its error), larger than every cap. */
const served = 200_000;
const note = /\n\[Output truncated: showing the first (\d+) of (\d+) characters\.\]$/;

let bigServer: Server;
let bigBase: string;
beforeAll(async () => {
	// A long body: as a 500's error (n8n puts it in the node error's description) or as a 200's JSON.
	bigServer = createServer((request, response) => {
		if (request.url === '/err')
			response
				.writeHead(500, { 'content-type': 'application/json' })
				.end(JSON.stringify({ error: big('failure', served) }));
		else
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ body: big('output', served) }));
	});
	await new Promise<void>((resolve) => bigServer.listen(0, '127.0.0.1', resolve));
	bigBase = `http://127.0.0.1:${(bigServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => bigServer.close(() => resolve())));

/** Runs `work` against a fake model that calls `tool` once with `args`, then answers; resolves with the tool message the model read. */
async function withModel(
	tool: string,
	args: object,
	work: (baseUrl: string) => Promise<unknown>,
): Promise<string> {
	const server = await startFakeChatServer({
		respond: ({ body }: FakeRequest) =>
			(body.messages as Array<{ role: string }>).some((message) => message.role === 'tool')
				? textReply('done')
				: toolCallReply([{ id: 'c1', name: tool, arguments: args }]),
	});
	try {
		await work(server.baseUrl);
		const messages = (server.requests.at(-1)?.body.messages ?? []) as Array<{
			role: string;
			content: string;
		}>;
		return messages.find((message) => message.role === 'tool')?.content ?? '';
	} finally {
		await server.close();
	}
}

const httpNode: INode = {
	id: 'get',
	name: 'Get',
	type: 'n8n-nodes-base.httpRequestTool',
	typeVersion: 4.2,
	position: [0, 200],
	parameters: {
		toolDescription: 'GETs a URL',
		url: "={{ $fromAI('url', 'The URL', 'string') }}",
		options: {},
	},
};

function httpWorkflow(): WorkflowExport {
	const agent: INode = {
		id: 'agent',
		name: 'Agent',
		type: orchestratorType,
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			authentication: 'openAiCompatibleApi',
			model: 'fake/model',
			prompt: '={{ $json.chatInput }}',
			options: {},
		},
		credentials: { openAiCompatibleApi: { id: 'm', name: 'Fake model' } },
	};
	return {
		name: 'cap',
		nodes: [agent, httpNode],
		connections: { Get: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
	};
}

function throwingTool(message: string): AgentTool {
	return {
		name: 'fail',
		description: 'fails',
		parameters: { type: 'object', properties: {} },
		invoke: async () => Promise.reject(new Error(message)),
	};
}

function erroringTool(content: string): AgentTool {
	return {
		name: 'fail',
		description: 'fails',
		parameters: { type: 'object', properties: {} },
		invoke: async () => ({ content, isError: true }),
	};
}

const nestedTool = (): AgentTool =>
	agentToolFromLangChain(
		createNestedAgentTool({
			spec: nestedAgentToolSpec({
				name: 'Researcher',
				type: orchestratorType,
				parameters: { mode: 'nested' },
			}),
			run: async () => big('answer'),
		}),
	);

const langChainTool = () =>
	new DynamicStructuredTool({
		name: 'dump',
		description: 'dumps',
		schema: z.object({}),
		func: async () => big('langchain output'),
		metadata: { sourceNodeName: 'Dump' },
	});

/** Runs the in-process loop with `tools` and the given cap. */
const loop = (tools: AgentTool[], maxOutputLength?: number) => (baseUrl: string) =>
	runAgent({
		input: { config: { model: 'fake/model' }, prompt: 'go' },
		tools,
		callModel: createChatModelCaller({ baseUrl }),
		maxOutputLength,
	});

/** Runs the standalone host on the HTTP Request workflow with the given cap. */
const standalone = (maxOutputLength?: number) => (baseUrl: string) =>
	runWorkflowAgent(httpWorkflow(), {
		prompt: 'go',
		credentials: { 'Fake model': { url: baseUrl } },
		env: {},
		nodeTypes: ownNodeTypes,
		maxOutputLength,
	});

/** Runs the Agent Orchestrator node in n8n-core (engine or in-process driver) with a real HTTP Request node. */
const node = (toolExecution: 'engine' | 'inProcess') => (baseUrl: string) =>
	runEngineWorkflow({
		agent: orchestratorNode('Agent', {
			model: 'fake/model',
			prompt: '={{ $json.chatInput }}',
			options: { toolExecution },
		}),
		tools: [{ ...httpNode, parameters: { ...httpNode.parameters } }],
		items: [{ chatInput: 'go' }],
		credentials: { 'Fake model': { apiKey: 'unused-key', url: baseUrl } },
		nodeTypes: { [orchestratorType]: new AgentOrchestrator() },
	});

describe('the output cap applies to every text the model reads', () => {
	it.each([
		[
			'a real node error of 200 KB (HTTP Request, standalone host)',
			'Get',
			{ url: '/err' },
			1000,
			standalone(1000),
		],
		[
			'a real node output of 200 KB (HTTP Request, standalone host)',
			'Get',
			{ url: '/ok' },
			1000,
			standalone(1000),
		],
		[
			'a thrown tool error of 1 MB (in-process loop)',
			'fail',
			{},
			1000,
			loop([throwingTool(big('thrown'))], 1000),
		],
		[
			'an error observation of 1 MB (in-process loop)',
			'fail',
			{},
			1000,
			loop([erroringTool(big('returned'))], 1000),
		],
		[
			"a nested agent's answer of 1 MB (default cap)",
			'Researcher',
			{ task: 'dig' },
			20_000,
			loop([nestedTool()]),
		],
		[
			'a LangChain tool output of 1 MB (default cap)',
			'dump',
			{},
			20_000,
			loop([agentToolFromLangChain(langChainTool())]),
		],
		[
			'a real node error of 200 KB in the engine driver (default cap)',
			'Get',
			{ url: '/err' },
			20_000,
			node('engine'),
		],
		[
			'a real node error of 200 KB in the node, in-process (default cap)',
			'Get',
			{ url: '/err' },
			20_000,
			node('inProcess'),
		],
	])(
		'%s',
		async (label, tool, args, cap, run) => {
			const url = (args as { url?: string }).url;
			const toolMessage = await withModel(tool, url ? { url: `${bigBase}${url}` } : args, run);
			const cut = note.exec(toolMessage);
			expect(cut, 'the text ends with the truncation note').not.toBeNull();
			expect(Number(cut?.[1])).toBe(cap);
			expect(Number(cut?.[2])).toBeGreaterThan(label.includes('200 KB') ? served : megabyte);
			expect(toolMessage.length).toBeLessThanOrEqual(cap + (cut?.[0].length ?? 0));
		},
		30_000,
	);

	it('validator mode: a tool that fails with 1 MB fails the run with a capped message', async () => {
		const server = await startFakeChatServer({
			respond: () => toolCallReply([{ id: 'v1', name: 'fail', arguments: {} }]),
		});
		try {
			const failing = runValidator({
				input: { config: { model: 'fake/model', toolName: 'fail' }, prompt: 'go' },
				tools: [throwingTool(big('validator'))],
				callModel: createChatModelCaller({ baseUrl: server.baseUrl }),
				maxOutputLength: 1000,
			});
			const error = (await failing.catch((caught: unknown) => caught)) as Error;
			expect(error.message).toMatch(
				/\[Output truncated: showing the first 1000 of \d+ characters\.\]$/,
			);
			expect(error.message.length).toBeLessThan(1300);
		} finally {
			await server.close();
		}
	});

	it('a node error is capped once, at the boundary its reader applies: the loop, the servers, a LangChain view', async () => {
		const host = await StandaloneHost.create({ env: {} });
		const { tools, langChainTools } = await loadWorkflowTools(httpWorkflow(), {
			host,
			maxOutputLength: 1000,
			nodeTypes: ownNodeTypes,
		});
		// The library's tools are bounded themselves (redacted, capped at their maxOutputLength) …
		const observation = await tools[0].invoke({ url: `${bigBase}/err` }, { toolCallId: 'x' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(
			/\n\[Output truncated: showing the first 1000 of \d+ characters\.\]$/,
		);
		// … so a reader's boundary after them (the loop's, a server's) changes nothing: cut once.
		expect(new OutputBoundary({ maxOutputLength: 1000 }).observation(observation).content).toBe(
			observation.content,
		);
		const text = String(await langChainTools[0].invoke({ url: `${bigBase}/err` }));
		expect(text).toBe(observation.content);
	});
});

describe('OutputBoundary.observation and the value a text was made from', () => {
	const secret = 'sk-or-v1-0123456789abcdef0123456789abcdef';
	it('redacts the value with the text and keeps it while the text is whole', () => {
		const value = [{ token: secret, n: 1 }];
		const observation = new OutputBoundary({ secrets: [secret] }).observation({
			content: JSON.stringify(value),
			isError: false,
			data: value,
			value,
		});
		expect(observation.content).toBe('[{"token":"[REDACTED]","n":1}]');
		expect(observation.value).toEqual([{ token: '[REDACTED]', n: 1 }]);
		expect(observation.data).toBe(observation.value);
	});

	it('drops the value once the text is cut, so it never says more than the text', () => {
		const value = [{ text: 'x'.repeat(200) }];
		const observation = new OutputBoundary({ maxOutputLength: 50 }).observation({
			content: JSON.stringify(value),
			isError: false,
			value,
		});
		expect(observation.content).toMatch(/\[Output truncated: showing the first 50 of/);
		expect(observation.value).toBeUndefined();
	});
});
