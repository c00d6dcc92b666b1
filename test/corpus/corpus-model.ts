/**
 * The model of the corpus's agent runs: a scripted stand-in speaking the OpenAI Chat Completions
 * wire format (streamed or not), served on the loopback service and, through nock, on the
 * provider hosts a chat-model node calls with no base-URL field. It records every request. Per
 * agent run it is given a script: the offline tool to ask for (once, with arguments it checks
 * against the JSON schema the request offers for that tool) and the final answer.
 */
import type { ChatMessage, ChatRequest } from '../../src/chat/types';
import { validateJson, type JsonSchema } from '../../src/index';

/** What the model does in one agent run. */
export interface ModelScript {
	/** The tool to ask for once, when a request offers it. */
	tool?: string;
	args?: Record<string, unknown>;
	/** The final answer (JSON text where an output parser wants JSON). */
	answer: string;
}

/** One answer of the model: status, headers and body. */
export interface ModelReply {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/** The scripted model; one instance serves the whole corpus run, one script at a time. */
export class CorpusModel {
	private script: ModelScript = { answer: 'fake answer' };
	/** The chat requests of the current run, in order. */
	requests: ChatRequest[] = [];
	/** Whether the scripted tool was asked for in this run. */
	asked = false;
	/** Why the scripted arguments do not fit the schema the request offered (empty: they fit). */
	argumentProblems: string[] = [];

	/** Starts a run: a new script, no requests. */
	begin(script: ModelScript): void {
		this.script = script;
		this.requests = [];
		this.asked = false;
		this.argumentProblems = [];
	}

	/** Answers a Chat Completions request body (JSON text). */
	answer(bodyText: string): ModelReply {
		let request: ChatRequest;
		try {
			request = JSON.parse(bodyText) as ChatRequest;
		} catch {
			return { status: 400, headers: json, body: '{"error":{"message":"body is not JSON"}}' };
		}
		this.requests.push(request);
		const offered = (request.tools ?? []).find((tool) => tool.function.name === this.script.tool);
		if (offered && !this.asked && !request.messages.some((message) => message.role === 'tool')) {
			this.asked = true;
			const args = this.script.args ?? {};
			const check = validateJson(args, offered.function.parameters as JsonSchema);
			if (!check.valid) this.argumentProblems = check.errors;
			return reply(request, {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_corpus',
						type: 'function',
						function: { name: offered.function.name, arguments: JSON.stringify(args) },
					},
				],
			});
		}
		return reply(request, { role: 'assistant', content: this.script.answer });
	}

	/** Whether `text` is in a user message of the run's first request (the outermost agent's). */
	userMessageHas(text: string): boolean {
		const [first] = this.requests;
		return (first?.messages ?? []).some(
			(message) => message.role === 'user' && messageText(message).includes(text),
		);
	}
}

const json = { 'content-type': 'application/json' };

type AssistantWire = {
	role: 'assistant';
	content: string | null;
	tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
};

function reply(request: ChatRequest, message: AssistantWire): ModelReply {
	const finish = message.tool_calls ? 'tool_calls' : 'stop';
	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
	const base = { id: 'chatcmpl-corpus', created: 0, model: request.model || 'fake' };
	if (request.stream !== true) {
		return {
			status: 200,
			headers: json,
			body: JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
				usage,
			}),
		};
	}
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
		`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
	const delta = message.tool_calls
		? {
				role: 'assistant',
				content: null,
				tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })),
			}
		: { role: 'assistant', content: message.content };
	return {
		status: 200,
		headers: { 'content-type': 'text/event-stream' },
		body:
			chunk([{ index: 0, delta, finish_reason: null }]) +
			chunk([{ index: 0, delta: {}, finish_reason: finish }]) +
			chunk([], { usage }) +
			'data: [DONE]\n\n',
	};
}

function messageText(message: ChatMessage): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content
			.map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : ''))
			.join('\n');
	return '';
}
