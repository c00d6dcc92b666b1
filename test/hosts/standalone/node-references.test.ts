/**
 * `$('Node')` in a whole agent run without n8n: the pinned output of nodes that do not run here
 * (the export's pinData, `pins`) reaches the expressions of n8n's own tool sub-nodes too — a
 * Code Tool's description, through n8n's `supplyData` — and a node without output is an
 * UnresolvedNodeReferenceError naming the tool node, not n8n's "Referenced node doesn't exist".
 * Real n8n nodes; a loopback fake model.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../src/hosts/standalone/run-workflow-agent';
import { StandaloneHost } from '../../../src/hosts/standalone/standalone-host';
import { UnavailableToolsError } from '../../../src/errors/unavailable-tools-error';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../support/fake-chat-server';
import { agentWorkflow, langChainNode } from './sub-nodes/sub-node-workflows';

const workflow = agentWorkflow('Pinned references', [
	langChainNode('Shout', 'toolCode', 1.3, {
		description:
			"=Uppercases text for {{ $('Telegram Trigger').item.json.message.from.first_name }}",
		language: 'javaScript',
		jsCode: 'return query.toUpperCase()',
	}),
]);
workflow.nodes.push({
	id: 'trigger',
	name: 'Telegram Trigger',
	type: 'n8n-nodes-base.telegramTrigger',
	typeVersion: 1.2,
	position: [0, 0],
	parameters: {},
});

let host: StandaloneHost;
let server: FakeChatServer | undefined;
beforeAll(async () => {
	host = await StandaloneHost.create({ env: {} });
});
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe("$('Node') in n8n's tool sub-nodes", () => {
	it("a Code Tool's description reads the pinned output (pins over the export's pinData)", async () => {
		server = await startFakeChatServer({ respond: () => textReply('Done.') });
		const run = await runWorkflowAgent(
			{
				...workflow,
				pinData: { 'Telegram Trigger': [{ json: { message: { from: { first_name: 'Ada' } } } }] },
			},
			{
				host,
				prompt: 'Shout hi',
				model: 'test/model',
				baseUrl: server.baseUrl,
				env: {},
				pins: { 'Telegram Trigger': { message: { from: { first_name: 'Bo' } } } },
			},
		);
		expect(run.tools).toEqual(['Shout']);
		expect(server.requests[0].body.tools[0].function.description).toBe('Uppercases text for Bo');
	});

	it('without any output of the node, the tool is unavailable with the clear reason, not "Referenced node doesn\'t exist"', async () => {
		server = await startFakeChatServer({ respond: () => textReply('Done.') });
		const error = await runWorkflowAgent(workflow, {
			host,
			prompt: 'Shout hi',
			model: 'test/model',
			baseUrl: server.baseUrl,
			env: {},
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(UnavailableToolsError);
		expect((error as UnavailableToolsError).tools[0].message).toBe(
			'"Shout" (@n8n/n8n-nodes-langchain.toolCode): n8n\'s node could not supply its tool: Agent "AI Agent": the expression at Shout › parameters.description reads the output of node "Telegram Trigger", which does not run here (only the agent and its sub-nodes do) and has no pinned output. Give that output with --pin \'Telegram Trigger={"field":"value"}\' (the JSON of its item, or an array of items; "pin" in the library and the servers), or pin the node\'s data in n8n before exporting.',
		);
		expect(server.requests).toHaveLength(0);
	});

	it('the legacy $node["Name"] and $items("Name") read the same pinned output', async () => {
		server = await startFakeChatServer({ respond: () => textReply('Done.') });
		const legacy = agentWorkflow('Legacy references', [
			langChainNode('Shout', 'toolCode', 1.3, {
				description:
					'=For {{ $node["Telegram Trigger"].json.message.from.first_name }} and {{ $items("Telegram Trigger")[1].json.message.from.first_name }} ({{ $node["Telegram Trigger"].parameter.updates }})',
				language: 'javaScript',
				jsCode: 'return query.toUpperCase()',
			}),
		]);
		legacy.nodes.push({ ...workflow.nodes.at(-1)!, parameters: { updates: ['message'] } });
		await runWorkflowAgent(legacy, {
			host,
			prompt: 'Shout hi',
			model: 'test/model',
			baseUrl: server.baseUrl,
			env: {},
			pins: {
				'Telegram Trigger': [
					{ message: { from: { first_name: 'Ada' } } },
					{ message: { from: { first_name: 'Bo' } } },
				],
			},
		});
		expect(server.requests[0].body.tools[0].function.description).toBe('For Ada and Bo (message)');
	});

	it('$node["Name"] of a node without output is the clear reason too', async () => {
		server = await startFakeChatServer({ respond: () => textReply('Done.') });
		const legacy = agentWorkflow('Legacy references', [
			langChainNode('Shout', 'toolCode', 1.3, {
				description: '=For {{ $node["Telegram Trigger"].json.message }}',
				language: 'javaScript',
				jsCode: 'return query.toUpperCase()',
			}),
		]);
		legacy.nodes.push(workflow.nodes.at(-1)!);
		const error = await runWorkflowAgent(legacy, {
			host,
			prompt: 'Shout hi',
			model: 'test/model',
			baseUrl: server.baseUrl,
			env: {},
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(UnavailableToolsError);
		expect((error as UnavailableToolsError).tools[0].message).toContain(
			'reads the output of node "Telegram Trigger", which does not run here',
		);
	});

	it("a bridged node's parameters read pinned output when the model calls it ($fromAI beside $('Node'))", async () => {
		server = await startFakeChatServer({
			respond: (request) =>
				request.body.messages.some((message: { role: string }) => message.role === 'tool')
					? textReply('Hashed.')
					: toolCallReply([{ name: 'Hash_greeting', arguments: { text: 'hi' } }]),
		});
		const bridged = agentWorkflow('Bridged references', [
			{
				id: 'hash',
				name: 'Hash greeting',
				type: 'n8n-nodes-base.cryptoTool',
				typeVersion: 2,
				position: [0, 0],
				parameters: {
					type: 'SHA256',
					value:
						"={{ $('Telegram Trigger').item.json.message.from.first_name }} {{ $fromAI('text', 'The greeting', 'string') }}",
					dataPropertyName: 'sha256',
					toolDescription: 'Hashes a greeting for the user',
				},
			},
		]);
		bridged.nodes.push(workflow.nodes.at(-1)!);
		const run = await runWorkflowAgent(bridged, {
			host,
			prompt: 'Hash hi',
			model: 'test/model',
			baseUrl: server.baseUrl,
			env: {},
			pins: { 'Telegram Trigger': { message: { from: { first_name: 'Bo' } } } },
		});
		expect(run.mode === 'full' && run.result.output).toBe('Hashed.');
		const toolMessage = server.requests[1].body.messages.find(
			(message: { role: string }) => message.role === 'tool',
		);
		expect(toolMessage.content).toContain(createHash('sha256').update('Bo hi').digest('hex'));
	});
});
