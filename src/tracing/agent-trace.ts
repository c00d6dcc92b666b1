import type { Context, Span } from '@opentelemetry/api';
import type { CallModel } from '../agent/call-model-step';
import type { Redactor } from '../chat/redactor';
import type { AssistantTurn, ChatMessage, Usage } from '../chat/types';
import type { AgentTool } from '../tools/agent-tool';
import { errorTypeOf, GEN_AI, providerOf, serverOf } from './gen-ai-attributes';
import { otelApiIfRegistered } from './otel-api';

/** The instrumentation scope of every span this package makes. */
export const TRACER_NAME = 'n8n-nodes-toolbridge';

/** What the `invoke_agent` span of one agent run says. */
export interface AgentTraceOptions {
	agentName: string;
	/** The model the agent asks for (`gen_ai.request.model`). */
	model: string;
	/** The Chat Completions base URL: `server.address`/`server.port` and the provider name. */
	baseUrl?: string;
	/** More attributes of the `invoke_agent` span (the n8n host: workflow, execution, node). */
	attributes?: Record<string, string | number | boolean | undefined>;
	/**
	 * Also record content, redacted by `redactor`: the prompt, each model call's answer, tool
	 * arguments and results. Off by default: spans then hold names, ids, models and counts only.
	 */
	captureContent?: boolean;
	redactor?: Redactor;
	/** The user's prompt (recorded only with `captureContent`). */
	prompt?: string;
}

/** One agent run's tracing: its span, and the wrappers that put model and tool calls under it. */
export interface AgentTrace {
	/** Runs `work` with the agent's span active, so nested agents' spans go under their tool call. */
	run<T>(work: () => Promise<T>): Promise<T>;
	/** The model caller with a `chat {model}` span (CLIENT) per call. */
	callModel(callModel: CallModel): CallModel;
	/** The tool with an `execute_tool {tool}` span per call, active while it runs. */
	tool<T extends AgentTool>(tool: T): T;
	/** Ends the agent's span with the run's usage. */
	end(result: { usage?: Usage; output?: string }): void;
	/** Ends the agent's span as failed (`error.type` is the error's code or class, never its message). */
	fail(error: unknown): void;
}

const untraced: AgentTrace = {
	run: (work) => work(),
	callModel: (callModel) => callModel,
	tool: (tool) => tool,
	end: () => {},
	fail: () => {},
};

/**
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` (what GenAI instrumentations read):
 * record messages and tool arguments and results in spans.
 */
export function captureContentFrom(env: NodeJS.ProcessEnv = process.env): boolean {
	return env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true';
}

/**
 * Starts the tracing of one agent run, following the OpenTelemetry GenAI conventions:
 * `invoke_agent {agent}` (INTERNAL) as a child of the active span — a nested agent's is the
 * child of its caller's `execute_tool` — with `chat {model}` and `execute_tool {tool}` spans
 * under it. Spans carry names, ids, models, token counts and `error.type`; never arguments,
 * results, messages or secrets unless `captureContent` (then redacted).
 *
 * Costs nothing when no OpenTelemetry SDK is registered (or the span is not sampled): the
 * wrappers hand back what they were given.
 */
export function startAgentTrace(options: AgentTraceOptions): AgentTrace {
	const api = otelApiIfRegistered();
	if (!api) return untraced;
	const { trace, context, SpanKind, SpanStatusCode } = api;
	const tracer = trace.getTracer(TRACER_NAME);
	const common = {
		[GEN_AI.provider]: providerOf(options.baseUrl),
		...serverOf(options.baseUrl),
	};
	const span = tracer.startSpan(`invoke_agent ${options.agentName}`, {
		kind: SpanKind.INTERNAL,
		attributes: {
			[GEN_AI.operation]: 'invoke_agent',
			[GEN_AI.agentName]: options.agentName,
			[GEN_AI.requestModel]: options.model,
			...common,
			...options.attributes,
		},
	});
	if (!span.isRecording()) {
		span.end();
		return untraced;
	}
	const agentContext: Context = trace.setSpan(context.active(), span);
	const content = options.captureContent === true;
	const redact = (text: string) => options.redactor?.text(text) ?? text;
	if (content && options.prompt !== undefined)
		span.setAttribute(
			GEN_AI.inputMessages,
			messagesJson([{ role: 'user', content: options.prompt }], redact),
		);
	const failed = (target: Span, error: unknown) => {
		target.setAttribute(GEN_AI.errorType, errorTypeOf(error));
		target.setStatus({ code: SpanStatusCode.ERROR });
	};

	return {
		run: (work) => context.with(agentContext, work),
		callModel: (callModel) => (request, callOptions) =>
			tracer.startActiveSpan(
				`chat ${request.model}`,
				{
					kind: SpanKind.CLIENT,
					attributes: {
						[GEN_AI.operation]: 'chat',
						[GEN_AI.requestModel]: request.model,
						[GEN_AI.requestTemperature]: request.temperature,
						[GEN_AI.requestMaxTokens]: request.max_tokens,
						...common,
					},
				},
				agentContext,
				async (chat) => {
					try {
						const turn = await callModel(request, callOptions);
						chat.setAttributes({
							[GEN_AI.responseModel]: turn.model,
							[GEN_AI.finishReasons]: [turn.rawFinishReason || turn.finishReason],
							[GEN_AI.inputTokens]: turn.usage?.promptTokens,
							[GEN_AI.outputTokens]: turn.usage?.completionTokens,
						});
						if (content) chat.setAttribute(GEN_AI.outputMessages, turnJson(turn, redact));
						return turn;
					} catch (error) {
						failed(chat, error);
						throw error;
					} finally {
						chat.end();
					}
				},
			),
		tool: (tool) => ({
			...tool,
			invoke: (args, invokeOptions) =>
				tracer.startActiveSpan(
					`execute_tool ${tool.name}`,
					{
						kind: SpanKind.INTERNAL,
						attributes: {
							[GEN_AI.operation]: 'execute_tool',
							[GEN_AI.toolName]: tool.name,
							[GEN_AI.toolCallId]: invokeOptions.toolCallId,
							[GEN_AI.toolType]: 'function',
							...(tool.nodeType ? { 'n8n.node.type': tool.nodeType } : {}),
						},
					},
					agentContext,
					async (toolSpan) => {
						// A tool that ignores its signal may never settle: the span ends when the call is given up.
						let ended = false;
						const end = () => {
							if (ended) return;
							ended = true;
							toolSpan.end();
						};
						const onAbort = () => {
							failed(toolSpan, invokeOptions.signal?.reason ?? new Error('aborted'));
							end();
						};
						invokeOptions.signal?.addEventListener('abort', onAbort, { once: true });
						if (content) toolSpan.setAttribute(GEN_AI.toolArguments, redact(JSON.stringify(args)));
						try {
							const observation = await tool.invoke(args, invokeOptions);
							if (!ended && observation.isError) failed(toolSpan, { code: 'tool_error' });
							if (!ended && content)
								toolSpan.setAttribute(GEN_AI.toolResult, redact(observation.content));
							return observation;
						} catch (error) {
							if (!ended) failed(toolSpan, error);
							throw error;
						} finally {
							invokeOptions.signal?.removeEventListener('abort', onAbort);
							end();
						}
					},
				),
		}),
		end: (result) => {
			if (!span.isRecording()) return; // ended already (failed)
			span.setAttributes({
				[GEN_AI.inputTokens]: result.usage?.promptTokens,
				[GEN_AI.outputTokens]: result.usage?.completionTokens,
			});
			if (content && result.output !== undefined)
				span.setAttribute(
					GEN_AI.outputMessages,
					messagesJson([{ role: 'assistant', content: result.output }], redact),
				);
			span.end();
		},
		fail: (error) => {
			if (!span.isRecording()) return;
			failed(span, error);
			span.end();
		},
	};
}

/** Messages in the GenAI conventions' JSON shape (`role`, text `parts`), redacted. */
function messagesJson(
	messages: Array<Pick<ChatMessage, 'role'> & { content: unknown }>,
	redact: (text: string) => string,
): string {
	return redact(
		JSON.stringify(
			messages.map((message) => ({
				role: message.role,
				parts: [
					{
						type: 'text',
						content:
							typeof message.content === 'string'
								? message.content
								: JSON.stringify(message.content),
					},
				],
			})),
		),
	);
}

/** A model call's answer in the GenAI output-messages shape: its text and tool calls, redacted. */
function turnJson(turn: AssistantTurn, redact: (text: string) => string): string {
	const parts: object[] = [];
	if (turn.text !== '') parts.push({ type: 'text', content: turn.text });
	for (const call of turn.toolCalls)
		parts.push({
			type: 'tool_call',
			id: call.toolCallId,
			name: call.name,
			arguments: call.argumentsText,
		});
	return redact(
		JSON.stringify([
			{ role: 'assistant', parts, finish_reason: turn.rawFinishReason || turn.finishReason },
		]),
	);
}
