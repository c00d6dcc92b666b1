import type { INode } from 'n8n-workflow';

/**
 * Why the user message of a run is what it is:
 * - `reads-chat-input`: the node's prompt reads `$json.chatInput` (n8n's "take from previous
 *   node automatically", or a template that wraps it): the user's text inside the node's wrapping;
 * - `no-user-text`: no user text was given, so the node's own prompt;
 * - `input`: the caller gave the item the node receives, so the node's own prompt over it;
 * - `pin`: the caller pinned the output of a node the prompt reads, so the node's own prompt;
 * - `user-text`: the node's prompt reads other data (`{{ $json.body.message }}`,
 *   `$('Telegram Trigger')…`, or literal text): the user's text is sent instead of it.
 */
export type UserMessageReason = 'reads-chat-input' | 'no-user-text' | 'input' | 'pin' | 'user-text';

/** Which text a run sends as its user message, and why. */
export interface UserMessageChoice {
	/** `user-text`: the user's text as it is; `node-prompt`: the node's prompt, resolved. */
	source: 'user-text' | 'node-prompt';
	reason: UserMessageReason;
	/** The node's own prompt as written (`={{ $json.body.message }}`); absent when it reads the chat input alone. */
	template?: string;
}

/** What decides the user message of an outermost agent run. */
export interface UserMessageRequest {
	/** The user's text (`--prompt`, the last user message of a request, an MCP call's prompt). */
	userText: string;
	/** Whether the caller gave the item the node receives (`--input`, `input`). */
	inputGiven: boolean;
	/** The nodes whose output the caller pinned (`--pin`, `pin`); the export's own `pinData` is not a request. */
	pinnedNodes: string[];
}

/**
 * Chooses the user message of an agent node's run, so that the user's text always reaches the
 * model unless the caller asked for the node's own prompt: a prompt that reads
 * `$json.chatInput` keeps its wrapping (`Answer this: {{ $json.chatInput }}`); a prompt that
 * reads other data is replaced by the user's text, unless the caller gave the data it reads
 * (the node's input item, or the pinned output of a node it names) or gave no text at all.
 */
export function chooseUserMessage(node: INode, request: UserMessageRequest): UserMessageChoice {
	const template = promptTemplateOf(node);
	if (template === undefined) return { source: 'node-prompt', reason: 'reads-chat-input' };
	const choice = (source: UserMessageChoice['source'], reason: UserMessageReason) => ({
		source,
		reason,
		template,
	});
	if (readsChatInput(template)) return choice('node-prompt', 'reads-chat-input');
	if (request.userText.trim() === '') return choice('node-prompt', 'no-user-text');
	if (request.inputGiven) return choice('node-prompt', 'input');
	if (request.pinnedNodes.some((name) => readsNode(template, name)))
		return choice('node-prompt', 'pin');
	return choice('user-text', 'user-text');
}

/**
 * The node's prompt as written, read as the settings readers read it; undefined when the node
 * takes the chat input as it is (n8n's AI Agent with "take from previous node automatically").
 */
function promptTemplateOf(node: INode): string | undefined {
	const { parameters } = node;
	if (node.type === '@n8n/n8n-nodes-langchain.agent') {
		const promptType = parameters.promptType;
		const defined =
			promptType === 'define' || (promptType === undefined && parameters.text !== undefined);
		return defined ? String(parameters.text ?? '') : undefined;
	}
	// The Agent Orchestrator's Prompt defaults to `={{ $json.chatInput }}` (not written when left so).
	const prompt = parameters.prompt;
	return prompt === undefined ? undefined : String(prompt);
}

/** Whether an expression reads the chat input: `{{ $json.chatInput }}`, `$json["chatInput"]`, a Chat Trigger's `.json.chatInput`. */
function readsChatInput(template: string): boolean {
	return template.startsWith('=') && /\{\{(?:(?!\}\})[^])*?\bchatInput\b/.test(template);
}

/** Whether an expression names node `name`: `$('name')`, `$("name")`, `$node["name"]`, `$items("name")`. */
function readsNode(template: string, name: string): boolean {
	if (!template.startsWith('=')) return false;
	return ["'", '"', '`'].some(
		(quote) =>
			template.includes(`(${quote}${name}${quote})`) ||
			template.includes(`[${quote}${name}${quote}]`),
	);
}
