import type { AgentEvent, AgentStep, Usage } from 'n8n-nodes-toolbridge';
import {
	newResponseId,
	outputTextPart,
	responseObject,
	TOOL_SERVER_LABEL,
	type McpCallItem,
	type MessageItem,
	type OutputItem,
	type ResponseIdentity,
} from './response-objects';

/** Receives one Responses stream event (with its `type` and `sequence_number`). */
export type ResponseEventSink = (event: { type: string; sequence_number: number }) => void;

interface OpenMessage {
	item: MessageItem;
	index: number;
	text: string;
}

/**
 * Builds a response's output from the agent's events, the same for `stream: false` and
 * `stream: true` — with a sink, every step is also sent as OpenAI's stream events, in the order
 * the official clients accept (`response.created` first, each item added before its parts and
 * deltas, one id per item, `response.completed` with the whole output):
 *
 * - the text of each model call is its own `message` item: `phase: "commentary"` when the call
 *   went on to call tools (a preamble), `"final_answer"` for the answer;
 * - each tool the agent runs here is an `mcp_call` item (server label `toolbridge`) with its
 *   arguments and its output or error: a hosted tool, so clients (the Agents SDK) run nothing;
 * - when the answer differs from the last model call's text (a validator result, a repaired JSON
 *   answer), that text stays commentary and the answer follows as its own message.
 */
export class ResponseOutput {
	readonly items: OutputItem[] = [];
	private sequence = 0;
	private open: OpenMessage | undefined;
	private readonly tools = new Map<string, { item: McpCallItem; index: number }>();

	constructor(
		private readonly identity: ResponseIdentity,
		private readonly sink?: ResponseEventSink,
	) {}

	/** Sends `response.created` and `response.in_progress` (streams only). */
	start(): void {
		const response = responseObject(this.identity, { status: 'in_progress', output: [] });
		this.emit('response.created', { response });
		this.emit('response.in_progress', { response });
	}

	/** Takes one agent event (text, model calls, tool steps; others are ignored). */
	readonly onEvent = (event: AgentEvent): void => {
		switch (event.type) {
			case 'text-delta':
				return this.text(event.text);
			case 'model-call-start':
				return this.closeMessage('commentary');
			case 'model-call-end':
				if (event.turn.toolCalls.length > 0) this.closeMessage('commentary');
				return;
			case 'step-start':
				this.closeMessage('commentary');
				this.startTool(event.call);
				return;
			case 'step-end':
				return this.endTool(event.step);
		}
	};

	/**
	 * Ends the output with the run's answer and returns the completed response object (sent as
	 * `response.completed` on a stream).
	 */
	complete(answer: string, usage: Usage): object {
		if (this.open && this.open.text !== answer) this.closeMessage('commentary');
		if (!this.open) this.text(answer);
		this.closeMessage('final_answer');
		const response = responseObject(this.identity, {
			status: 'completed',
			output: this.items,
			usage,
		});
		this.emit('response.completed', { response });
		return response;
	}

	/** Sends OpenAI's mid-stream `error` event (clients raise it). */
	fail(error: { message: string; code: string | null; param: string | null }): void {
		this.emit('error', {
			code: error.code ?? 'server_error',
			message: error.message,
			param: error.param,
		});
	}

	private text(delta: string): void {
		if (!this.open) {
			const item: MessageItem = {
				id: newResponseId('msg'),
				type: 'message',
				status: 'in_progress',
				role: 'assistant',
				content: [],
			};
			this.open = { item, index: this.items.push(item) - 1, text: '' };
			this.emit('response.output_item.added', { output_index: this.open.index, item });
			this.emit('response.content_part.added', {
				...this.partAddress(),
				part: outputTextPart(''),
			});
		}
		if (delta === '') return;
		this.open.text += delta;
		this.emit('response.output_text.delta', { ...this.partAddress(), delta, logprobs: [] });
	}

	private closeMessage(phase: 'commentary' | 'final_answer'): void {
		const open = this.open;
		if (!open) return;
		const part = outputTextPart(open.text);
		this.emit('response.output_text.done', {
			...this.partAddress(),
			text: open.text,
			logprobs: [],
		});
		this.emit('response.content_part.done', { ...this.partAddress(), part });
		Object.assign(open.item, { status: 'completed', phase, content: [part] });
		this.emit('response.output_item.done', { output_index: open.index, item: open.item });
		this.open = undefined;
	}

	private partAddress() {
		return { item_id: this.open!.item.id, output_index: this.open!.index, content_index: 0 };
	}

	private startTool(call: {
		toolCallId: string;
		name: string;
		arguments: Record<string, unknown> | string;
	}): void {
		const argumentsText =
			typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
		const item: McpCallItem = {
			id: newResponseId('mcp'),
			type: 'mcp_call',
			status: 'in_progress',
			server_label: TOOL_SERVER_LABEL,
			name: call.name,
			arguments: '',
			output: null,
			error: null,
			approval_request_id: null,
		};
		const index = this.items.push(item) - 1;
		this.tools.set(call.toolCallId, { item, index });
		const address = { output_index: index, item_id: item.id };
		this.emit('response.output_item.added', { output_index: index, item });
		this.emit('response.mcp_call_arguments.delta', { ...address, delta: argumentsText });
		item.arguments = argumentsText;
		this.emit('response.mcp_call_arguments.done', { ...address, arguments: argumentsText });
		this.emit('response.mcp_call.in_progress', address);
	}

	private endTool(step: AgentStep): void {
		// A call the loop answered itself (unknown tool, broken arguments) had no step-start.
		if (!this.tools.has(step.toolCallId))
			this.startTool({ toolCallId: step.toolCallId, name: step.tool, arguments: step.arguments });
		const { item, index } = this.tools.get(step.toolCallId)!;
		Object.assign(item, {
			status: step.isError ? 'failed' : 'completed',
			output: step.isError ? null : step.result,
			error: step.isError ? step.result : null,
		});
		this.emit(step.isError ? 'response.mcp_call.failed' : 'response.mcp_call.completed', {
			output_index: index,
			item_id: item.id,
		});
		this.emit('response.output_item.done', { output_index: index, item });
	}

	private emit(type: string, fields: object): void {
		this.sink?.({ type, ...fields, sequence_number: this.sequence++ });
	}
}
