/**
 * n8n-nodes-toolbridge — the public surface. Everything exported here is named;
 * whatever is not exported is internal.
 */
export { ToolbridgeError } from './errors/toolbridge-error';
export type * from './chat/types';
export type { AgentTool, ToolObservation, ToolInvokeOptions } from './agent/agent-tool';
// chat client
export { streamChat, defaultChatTimeoutMs } from './chat/stream-chat';
export type { ChatClientOptions, RetryEvent } from './chat/stream-chat';
export { collectTurn } from './chat/collect-turn';
export type { StreamPartListener } from './chat/collect-turn';
export { chatCompletion } from './chat/chat-completion';
export { chatCompletionsUrl } from './chat/chat-completions-url';
export { parseChatStream } from './chat/parse-chat-stream';
export { SseParser } from './chat/parse-sse';
export type { SseEvent } from './chat/parse-sse';
export { defaultRetryOptions, parseRetryAfter } from './chat/retry-policy';
export type { RetryOptions } from './chat/retry-policy';
export type { ChatCompletionChunk } from './chat/chat-chunk';
export { parseToolArguments } from './chat/parse-tool-arguments';
export {
	ApiCallError,
	BadRequestError,
	AuthenticationError,
	InsufficientCreditsError,
	PermissionDeniedError,
	ProviderTimeoutError,
	RateLimitError,
	ProviderUnavailableError,
	ServerError,
} from './errors/api-call-error';
export { ChatAbortedError } from './errors/chat-aborted-error';
export { ChatConnectionError } from './errors/chat-connection-error';
export { ChatTimeoutError } from './errors/chat-timeout-error';
export { MidStreamError } from './errors/mid-stream-error';
export { IncompleteStreamError } from './errors/incomplete-stream-error';
export { InvalidChunkError } from './errors/invalid-chunk-error';
export { ToolArgumentsError } from './errors/tool-arguments-error';
export { toOpenAITool, toAnthropicTool, toProviderToolChoice, toolParametersSchema } from './chat/tool-conversion';
export type { ToolDefinitionLike, ToolChoice, AnthropicTool, AnthropicToolChoice, GoogleToolConfig } from './chat/tool-conversion';
export { zodToJsonSchema, isZodSchema } from './chat/zod-to-json-schema';
export type { ZodSchemaLike } from './chat/zod-to-json-schema';
export { assistantMessageFromTurn } from './chat/assistant-message';
// $fromAI compiler: scanner → markers → schema → tool name and description
export { findFromAICalls } from './from-ai/find-from-ai-calls';
export { collectFromAIMarkers } from './from-ai/collect-from-ai-markers';
export type { CollectFromAIMarkersOptions, CollectedFromAIMarkers } from './from-ai/collect-from-ai-markers';
export type { FromAIMarker, FromAIParameterMarker, FromAIType, FromAIJsonValue, FromAISpan } from './from-ai/from-ai-marker';
export { buildToolSchema } from './schema/build-tool-schema';
export type { ToolSchema, ToolJsonSchema } from './schema/build-tool-schema';
export { mergeFromAIMarkers } from './schema/merge-from-ai-markers';
export type { ToolParameter, SchemaMarker, MergeFromAIMarkersOptions } from './schema/merge-from-ai-markers';
export { toolNameFromNodeName, nodeNameToN8nToolName } from './schema/tool-name-from-node-name';
export { buildToolDescription } from './schema/build-tool-description';
export type { BuildToolDescriptionOptions, ToolDescriptionNode, ToolDescriptionNodeType } from './schema/build-tool-description';
export { FromAIError, FromAIKeyConflictError } from './errors/from-ai-error';
export type { FromAIErrorCode, FromAIErrorLocation } from './errors/from-ai-error';
