import type { INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { chooseUserMessage } from '../../../../src/hosts/standalone/workflow/choose-user-message';

const agent = (parameters: INode['parameters']): INode => ({
	id: 'agent',
	name: 'AI Agent',
	type: '@n8n/n8n-nodes-langchain.agent',
	typeVersion: 3.1,
	position: [0, 0],
	parameters,
});
const orchestrator = (parameters: INode['parameters']): INode => ({
	...agent(parameters),
	type: 'n8n-nodes-toolbridge.agentOrchestrator',
	typeVersion: 1,
});
const asked = { userText: 'What is 2+2*3?', inputGiven: false, pinnedNodes: [] };

describe('chooseUserMessage', () => {
	it.each([
		[
			'AI Agent, take from previous node (no promptType)',
			agent({}),
			asked,
			'node-prompt',
			'reads-chat-input',
		],
		[
			'AI Agent, promptType auto',
			agent({ promptType: 'auto' }),
			asked,
			'node-prompt',
			'reads-chat-input',
		],
		[
			'a template that wraps $json.chatInput',
			agent({ promptType: 'define', text: '=Answer this: {{ $json.chatInput }}' }),
			asked,
			'node-prompt',
			'reads-chat-input',
		],
		[
			'$json["chatInput"]',
			agent({ promptType: 'define', text: '={{ $json["chatInput"] }}' }),
			asked,
			'node-prompt',
			'reads-chat-input',
		],
		[
			"a Chat Trigger's chatInput",
			agent({
				promptType: 'define',
				text: "={{ $('When chat message received').item.json.chatInput }}",
			}),
			asked,
			'node-prompt',
			'reads-chat-input',
		],
		['Orchestrator default prompt', orchestrator({}), asked, 'node-prompt', 'reads-chat-input'],
		[
			'$json.body.message',
			agent({ promptType: 'define', text: '={{ $json.body.message }}' }),
			asked,
			'user-text',
			'user-text',
		],
		[
			'chatInput outside an expression',
			agent({ promptType: 'define', text: '=chatInput: {{ $json.body }}' }),
			asked,
			'user-text',
			'user-text',
		],
		[
			'literal text',
			agent({ promptType: 'define', text: 'Summarize the news' }),
			asked,
			'user-text',
			'user-text',
		],
		[
			'Orchestrator prompt from a webhook',
			orchestrator({ prompt: '={{ $json.body.text }}' }),
			asked,
			'user-text',
			'user-text',
		],
		[
			'no user text',
			agent({ promptType: 'define', text: '={{ $json.body.message }}' }),
			{ ...asked, userText: ' ' },
			'node-prompt',
			'no-user-text',
		],
		[
			'an input item',
			agent({ promptType: 'define', text: '={{ $json.body.message }}' }),
			{ ...asked, inputGiven: true },
			'node-prompt',
			'input',
		],
		[
			'a pin of a node it reads',
			agent({ promptType: 'define', text: "={{ $('Telegram Trigger').item.json.message.text }}" }),
			{ ...asked, pinnedNodes: ['Telegram Trigger'] },
			'node-prompt',
			'pin',
		],
		[
			'a pin of another node',
			agent({ promptType: 'define', text: "={{ $('Telegram Trigger').item.json.message.text }}" }),
			{ ...asked, pinnedNodes: ['Webhook'] },
			'user-text',
			'user-text',
		],
	] as const)('%s', (_case, node, request, source, reason) => {
		expect(
			chooseUserMessage(node, { ...request, pinnedNodes: [...request.pinnedNodes] }),
		).toMatchObject({
			source,
			reason,
		});
	});
});
