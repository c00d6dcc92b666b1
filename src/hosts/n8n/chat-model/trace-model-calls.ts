import {
	NodeOperationError,
	type IDataObject,
	type INode,
	type INodeExecutionData,
} from 'n8n-workflow';
import type { CallModel } from '../../../agent/call-model-step';
import type { Redactor } from '../../../chat/redactor';
import type { AssistantTurn, ChatMessage, ChatRequest } from '../../../chat/types';

/** The calls of a sub-node's context that write its runs into the execution (what n8n's Logs view shows). */
export interface ModelTraceContext {
	getNode(): INode;
	addInputData(connectionType: 'ai_languageModel', data: INodeExecutionData[][]): { index: number };
	addOutputData(
		connectionType: 'ai_languageModel',
		currentNodeRunIndex: number,
		data: INodeExecutionData[][] | Error,
	): void;
}

/**
 * Wraps a `callModel` so every call is logged as a run of the chat model sub-node, in the
 * shape n8n's own LLM tracing writes (input `{ messages, options }`, output
 * `{ response: { generations }, tokenUsage }`, a failed call as the run's error), so the
 * native path (our client called directly, without LangChain) shows in the Logs like any
 * connected model. Redacted with the run's redactor.
 */
export function traceModelCalls(
	callModel: CallModel,
	trace: ModelTraceContext,
	redactor: Redactor,
): CallModel {
	return async (request, options) => {
		const { index } = trace.addInputData('ai_languageModel', [
			[
				{
					json: redactor.value({
						messages: request.messages.map(promptLine),
						options: requestOptions(request),
					}) as IDataObject,
				},
			],
		]);
		try {
			const turn = await callModel(request, options);
			trace.addOutputData('ai_languageModel', index, [
				[{ json: redactor.value(traceOutput(turn)) as IDataObject }],
			]);
			return turn;
		} catch (error) {
			trace.addOutputData(
				'ai_languageModel',
				index,
				new NodeOperationError(trace.getNode(), redactor.error(error) as Error, {
					functionality: 'configuration-node',
				}),
			);
			throw error;
		}
	};
}

/** One message as LangChain's tracing prints prompts: `Role: text`. */
function promptLine(message: ChatMessage): string {
	const role = { system: 'System', user: 'Human', assistant: 'AI', tool: 'Tool' }[message.role];
	const content = message.content;
	let text =
		typeof content === 'string'
			? content
			: content === null
				? ''
				: content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
	if (message.role === 'assistant' && message.tool_calls)
		text += message.tool_calls
			.map((call) => `\n[tool call ${call.function.name} ${call.function.arguments}]`)
			.join('');
	return `${role}: ${text}`;
}

/** The request's settings without messages and tool schemas (those are long; the tool names are kept). */
function requestOptions(request: ChatRequest): Record<string, unknown> {
	const { messages: _messages, tools, ...rest } = request;
	return tools ? { ...rest, tools: tools.map((tool) => tool.function.name) } : rest;
}

function traceOutput(turn: AssistantTurn): Record<string, unknown> {
	const generationInfo: Record<string, unknown> = { finish_reason: turn.rawFinishReason };
	if (turn.toolCalls.length > 0)
		generationInfo.tool_calls = turn.toolCalls.map((call) => ({
			id: call.toolCallId,
			name: call.name,
			arguments: call.arguments ?? call.argumentsText,
		}));
	if (turn.reasoning) generationInfo.reasoning = turn.reasoning;
	if (turn.model) generationInfo.model = turn.model;
	const output: Record<string, unknown> = {
		response: { generations: [[{ text: turn.text, generationInfo }]] },
	};
	if (turn.usage)
		output.tokenUsage = {
			promptTokens: turn.usage.promptTokens,
			completionTokens: turn.usage.completionTokens,
			totalTokens: turn.usage.totalTokens,
		};
	return output;
}
