/**
 * Workflow exports of n8n's AI Agent with an output parser (Structured Output Parser, Auto-fixing
 * Output Parser, Item List Output Parser) on its `ai_outputParser` input, its model an OpenAI Chat
 * Model whose credential points at a loopback fake; and the fake's answers for the parser's own
 * model (LangChain's ChatOpenAI calls it without streaming).
 */
import type { IConnections, INode, INodeParameters, NodeConnectionType } from 'n8n-workflow';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import { textReply, type FakeReply, type FakeRequest } from './fake-chat-server';

/** A node of n8n's LangChain package. */
export function langChainNode(
	name: string,
	type: string,
	typeVersion: number,
	parameters: INodeParameters = {},
	credentials?: INode['credentials'],
): INode {
	return {
		id: name,
		name,
		type: `@n8n/n8n-nodes-langchain.${type}`,
		typeVersion,
		position: [0, 0],
		parameters,
		...(credentials ? { credentials } : {}),
	};
}

/** An OpenAI Chat Model (1.2) with model `model` on the `openAiApi` credential named `credential`. */
export function openAiModelNode(name: string, credential: string, model = 'gpt-4o-mini'): INode {
	return langChainNode(
		name,
		'lmChatOpenAi',
		1.2,
		{ model: { __rl: true, mode: 'list', value: model }, options: {} },
		{ openAiApi: { id: credential, name: credential } },
	);
}

/** A Structured Output Parser 1.3 from a JSON example. */
export const cityFromExample = langChainNode(
	'Structured Output Parser',
	'outputParserStructured',
	1.3,
	{
		jsonSchemaExample: '{\n  "city": "Paris",\n  "population": 2100000\n}',
	},
);

/**
 * An n8n AI Agent (typeVersion `agentVersion`, "Require Specific Output Format" on unless
 * `hasOutputParser` says otherwise) on the OpenAI Chat Model "Agent model" (credential
 * "Agent key"), with `parser` on its output parser input and `others` (the parser's sub-nodes)
 * joined by `links`.
 */
export function parserWorkflow(
	parser: INode,
	others: INode[] = [],
	links: Array<{ from: string; to: string; type: string }> = [],
	agent: { typeVersion?: number; hasOutputParser?: boolean } = {},
): WorkflowExport {
	const parameters: INodeParameters = { promptType: 'auto', options: {} };
	// Unset with an explicit version: n8n's default for that version applies.
	const hasOutputParser = agent.hasOutputParser ?? (agent.typeVersion === undefined || undefined);
	if (hasOutputParser !== undefined) parameters.hasOutputParser = hasOutputParser;
	const agentNode: INode = {
		id: 'agent',
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: agent.typeVersion ?? 1.7,
		position: [0, 0],
		parameters,
	};
	const connections: IConnections = {};
	const link = ({ from, to, type }: { from: string; to: string; type: string }): void => {
		connections[from] ??= {};
		connections[from][type] ??= [[]];
		connections[from][type][0]!.push({ node: to, type: type as NodeConnectionType, index: 0 });
	};
	link({ from: 'Agent model', to: 'AI Agent', type: 'ai_languageModel' });
	link({ from: parser.name, to: 'AI Agent', type: 'ai_outputParser' });
	for (const each of links) link(each);
	return {
		id: 'wf-output-parser',
		name: 'Output parser',
		nodes: [agentNode, openAiModelNode('Agent model', 'Agent key'), parser, ...others],
		connections,
	};
}

/** `text` as the model's answer: streamed when the request asks for a stream, else one `chat.completion` JSON body. */
export function answer(request: FakeRequest, text: string): FakeReply {
	if (request.body?.stream === true) return textReply(text);
	return {
		json: {
			id: 'chatcmpl-fake',
			object: 'chat.completion',
			created: 1_750_000_000,
			model: request.body?.model ?? 'fake',
			choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
			usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
		},
	};
}
