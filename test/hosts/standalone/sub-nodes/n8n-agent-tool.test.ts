/**
 * n8n's AI Agent Tool (an AI Agent used as another agent's tool) in the standalone host: listed
 * with the name, description and `$fromAI` arguments n8n-core's createNodeAsTool gives it, and
 * a call runs it on this package's loop — its prompt with the arguments filled in, its system
 * message, the model of its own chat-model sub-node (OpenAI Chat Model at a loopback fake) and
 * its own tools (n8n's Calculator, supplied by n8n's code) — answering what n8n's tool answers:
 * `[{"output":"…"}]`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { openWorkflowSession } from '../../../../src/hosts/standalone/session/open-workflow-session';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../../support/fake-chat-server';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

let model: FakeChatServer;
let host: StandaloneHost;

beforeAll(async () => {
	// The sub-agent's model: first it calls the Calculator, then it answers with the result it read.
	model = await startFakeChatServer({
		respond: ({ body }) => {
			const toolMessage = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return toolMessage
				? textReply(`6 times 7 is ${toolMessage.content}`)
				: toolCallReply([{ name: 'Calculator', arguments: { input: '6*7' } }]);
		},
	});
	host = await StandaloneHost.create({
		credentials: { 'Sub-agent model': { apiKey: 'sk-sub-agent-key-123456', url: model.baseUrl } },
		env: {},
	});
});

afterAll(() => model.close());

const workflow = agentWorkflow(
	'Agent as a tool',
	[
		langChainNode('Math agent', 'agentTool', 3, {
			toolDescription: 'Answers math questions',
			text: "={{ $fromAI('Prompt__User_Message_', 'the question', 'string') }}",
			options: { systemMessage: 'You do math with your calculator.' },
		}),
	],
	[
		langChainNode(
			'Sub model',
			'lmChatOpenAi',
			1.3,
			{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
			{ openAiApi: { id: 'o', name: 'Sub-agent model' } },
		),
		langChainNode('Calculator', 'toolCalculator', 1),
	],
	[
		{ from: 'Sub model', to: 'Math agent', type: 'ai_languageModel' },
		{ from: 'Calculator', to: 'Math agent', type: 'ai_tool' },
	],
);

describe("n8n's AI Agent Tool on this package's loop", () => {
	it("is listed with the name, description and arguments n8n's AI Agent gives the model", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		// Compiled from `$fromAI` like n8n-core's createNodeAsTool does.
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		const [tool] = loaded.tools;
		expect(tool).toMatchObject({
			name: 'Math_agent',
			nodeType: '@n8n/n8n-nodes-langchain.agentTool',
			nestedAgent: true,
			parameters: {
				properties: { Prompt__User_Message_: { type: 'string', description: 'the question' } },
				required: ['Prompt__User_Message_'],
			},
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it('a call runs the sub-agent with its own model and tools and answers [{"output": …}]', async () => {
		const session = await openWorkflowSession(workflow, { host });
		const observation = await session
			.findTool('Math_agent')!
			.invoke({ Prompt__User_Message_: 'What is 6 times 7?' }, { toolCallId: 'agent' });
		expect(observation).toMatchObject({
			isError: false,
			content: JSON.stringify([{ output: '6 times 7 is 42' }]),
		});
		const [first, second] = model.requests.slice(-2).map((request) => request.body);
		expect(first.model).toBe('gpt-4o-mini');
		expect(first.messages).toEqual([
			{ role: 'system', content: 'You do math with your calculator.' },
			{ role: 'user', content: 'What is 6 times 7?' },
		]);
		expect(first.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
			'Calculator',
		]);
		expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
		expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-sub-agent-key-123456');
		await session.close();
	});

	it('without a model connection (loadWorkflowTools alone) a call says what it needs', async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const observation = await loaded.tools[0].invoke(
			{ Prompt__User_Message_: 'x' },
			{ toolCallId: 'none' },
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain('"Math agent" is a nested agent');
		await loaded.close();
	});
});
