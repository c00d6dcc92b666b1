// @ts-check
/**
 * The nested agent the scenarios of every suite share: the Researcher (our orchestrator in
 * nested mode, Crypto as its tool), the scripted parent and child models that drive it, and
 * n8n's AI Agent with the Researcher as its tool.
 */
import { checkRequest, assertToolSchema, matchStreaming, toolMessages } from './fake-model.mjs';
import { TOOL_INPUT, assertHashToolSchema, hashTextTool } from './tool-fixtures.mjs';
import {
	agentOrchestratorNode,
	aiAgentNode,
	connections,
	openRouterModelNode,
} from './workflows.mjs';

/** The description the parent's model must see for the nested agent. */
export const RESEARCHER_DESCRIPTION =
	'Researches a question with its own tools and answers in one short sentence.';

/** The task the parent's model gives the nested agent. */
export const RESEARCHER_TASK = `Compute the SHA-256 hex digest of this exact text: ${TOOL_INPUT.text}`;

/** Text of the first `user` message of a request. */
function userText(body) {
	const message = (body?.messages ?? []).find((/** @type {any} */ entry) => entry.role === 'user');
	if (!message) return undefined;
	return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

/** Sum of the `usage` each scripted reply reported (the fake's usage chunk). */
function replyUsage(reply) {
	const chunk = (reply.chunks ?? []).find((/** @type {any} */ entry) => entry.usage);
	return chunk?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: 0 };
}

/**
 * The scripted child model: asserts the Hash Text schema and that its user message is the
 * task the parent sent; calls the tool; answers with the digest in one sentence.
 * @param {string} model
 * @param {Array<{ usage: any }>} replies collects every reply's usage
 * @returns {(request: any, fake: any) => any}
 */
function childModel(model, replies) {
	return (request, fake) => {
		const body = request.body;
		assertHashToolSchema(body);
		const prompt = userText(body);
		if (prompt !== RESEARCHER_TASK)
			throw new Error(
				`the child's user message is ${JSON.stringify(prompt)}, expected the parent's task ${JSON.stringify(RESEARCHER_TASK)}`,
			);
		const results = toolMessages(body);
		let reply;
		if (results.length === 0) {
			reply = fake.toolCallReply(
				[{ id: 'call_child_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
				{ model },
			);
		} else {
			const digest = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
			if (!digest)
				throw new Error(
					`the child's tool result has no digest: ${results[0].content.slice(0, 500)}`,
				);
			reply = fake.textReply(childAnswer(digest), { model });
		}
		replies.push({ usage: replyUsage(reply) });
		return matchStreaming(request, reply);
	};
}

/** The child's final answer for a digest. */
export function childAnswer(digest) {
	return `The SHA-256 digest is ${digest}.`;
}

/**
 * The scripted parent model: asserts the Researcher schema (task: string), calls it once,
 * then answers with what came back (recorded in `seen`).
 * @param {string} model
 * @param {Array<{ usage: any }>} replies
 * @param {{ toolResult?: string }} seen
 * @returns {(request: any, fake: any) => any}
 */
function parentModel(model, replies, seen) {
	return (request, fake) => {
		const body = request.body;
		assertToolSchema(body, 'Researcher', {
			properties: { task: 'string' },
			required: ['task'],
			description: RESEARCHER_DESCRIPTION,
		});
		const results = toolMessages(body);
		let reply;
		if (results.length === 0) {
			reply = fake.toolCallReply(
				[{ id: 'call_researcher', name: 'Researcher', arguments: { task: RESEARCHER_TASK } }],
				{ model },
			);
		} else {
			const result = results.find((entry) => entry.tool_call_id === 'call_researcher');
			if (!result)
				throw new Error(
					`no tool result for call_researcher: ${JSON.stringify(results).slice(0, 500)}`,
				);
			seen.toolResult = result.content;
			reply = fake.textReply(`Researcher reported: ${result.content}`, { model });
		}
		replies.push({ usage: replyUsage(reply) });
		return matchStreaming(request, reply);
	};
}

/**
 * A fake serving both a parent and a child model (told apart by model id).
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {{ parent: string, child: string }} models
 */
export async function parentAndChildFake(scope, models) {
	/** @type {Array<{ usage: any }>} */
	const parentReplies = [];
	/** @type {Array<{ usage: any }>} */
	const childReplies = [];
	/** @type {{ toolResult?: string }} */
	const seen = {};
	const parent = parentModel(models.parent, parentReplies, seen);
	const child = childModel(models.child, childReplies);
	const fake = await scope.startFake((request, fakeModule) => {
		checkRequest(request);
		if (request.body?.model === models.parent) return parent(request, fakeModule);
		if (request.body?.model === models.child) return child(request, fakeModule);
		throw new Error(`unknown model ${JSON.stringify(request.body?.model)}`);
	});
	return { fake, parentReplies, childReplies, seen };
}

/**
 * The nested Researcher node (its own OpenRouter credential, the default `$fromAI('task')` prompt).
 * @param {{ id: string, name: string }} credential
 * @param {string} model
 * @param {Record<string, unknown>} [options] the node's options
 */
export function researcherNode(credential, model, options = {}) {
	return agentOrchestratorNode(
		credential,
		{
			mode: 'nested',
			model,
			toolDescription: RESEARCHER_DESCRIPTION,
			prompt: "={{ $fromAI('task', 'The task for this agent', 'string') }}",
			options,
		},
		'Researcher',
	);
}

/**
 * n8n's AI Agent (an OpenRouter Chat Model on the parent model) with the Researcher as its
 * tool and Crypto under the Researcher, after `trigger`.
 * @param {object} spec
 * @param {import('./workflows.mjs').WorkflowNode} spec.trigger
 * @param {{ id: string, name: string }} spec.credential
 * @param {{ parent: string, child: string }} spec.models
 * @param {{ agent?: number, lmChatOpenRouter?: number, crypto?: number }} [spec.versions] node
 *   typeVersions (default: those of n8n 2.41)
 * @returns {{ nodes: import('./workflows.mjs').WorkflowNode[], connections: Record<string, any> }}
 */
export function n8nAgentOverResearcher({ trigger, credential, models, versions = {} }) {
	const hash = hashTextTool();
	return {
		nodes: [
			trigger,
			aiAgentNode('Ask the researcher for the digest and report it.', versions.agent),
			openRouterModelNode(credential, models.parent, versions.lmChatOpenRouter),
			researcherNode(credential, models.child),
			versions.crypto === undefined ? hash : { ...hash, typeVersion: versions.crypto },
		],
		connections: connections([
			[trigger.name, 'AI Agent'],
			['OpenRouter Model', 'AI Agent', 'ai_languageModel'],
			['Researcher', 'AI Agent', 'ai_tool'],
			['Hash Text', 'Researcher', 'ai_tool'],
		]),
	};
}
