/**
 * n8n-nodes-toolbridge — the public surface. Everything exported here is named;
 * whatever is not exported is internal.
 */
import { assertPeerDependencies } from './hosts/assert-peer-dependencies';

// Before any module below requires n8n's libraries: outside n8n, say what to install.
assertPeerDependencies();

export { ToolbridgeError } from './errors/toolbridge-error';
export { PeerDependencyError } from './errors/peer-dependency-error';
export type * from './chat/types';
export type { AgentTool, ToolObservation, ToolInvokeOptions } from './tools/agent-tool';
// chat client
export { streamChat, streamChatBatches, defaultChatTimeoutMs } from './chat/stream-chat';
export type { ChatClientOptions, RetryEvent } from './chat/stream-chat';
export { collectTurn, collectTurnFromBatches, TurnAssembler } from './chat/collect-turn';
export { RequestBodyWriter, chatRequestBody } from './chat/request-body';
export type { StreamPartListener } from './chat/collect-turn';
export { chatCompletion } from './chat/chat-completion';
export { chatCompletionsUrl } from './chat/chat-completions-url';
export { parseChatStream, ChatStreamParser } from './chat/parse-chat-stream';
export { SseParser } from './chat/parse-sse';
export type { SseEvent } from './chat/parse-sse';
export { defaultRetryOptions, parseRetryAfter } from './chat/retry-policy';
export type { RetryOptions } from './chat/retry-policy';
export type { ChatCompletionChunk } from './chat/chat-chunk';
export { parseToolArguments } from './chat/parse-tool-arguments';
export { isRetryableError } from './chat/is-retryable-error';
export { createApiCallError } from './errors/api-call-error';
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
export { zodToJsonSchema, isZodSchema } from './schema/zod-to-json-schema';
export type { ZodSchemaLike } from './schema/zod-to-json-schema';
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
// provider-aware schemas and structured output
export { shapeToolSchema } from './schema/shape-tool-schema';
export type { SchemaTarget } from './schema/shape-tool-schema';
export { strictSchemaProblems } from './schema/shape-for-openai-strict';
export { modelFamilyFromModelId } from './schema/model-family';
export type { ModelFamily } from './schema/model-family';
export { inferJsonSchemaFromExample } from './schema/infer-json-schema';
export { validateJson, validateJsonSchema } from './schema/validate-json';
export type { JsonValidationResult } from './schema/validate-json';
export { describeSchemaProblem } from './schema/schema-problems';
export type { SchemaProblem } from './schema/schema-problems';
export { responseFormatForSchema } from './schema/response-format-for-schema';
export type { JsonSchemaResponseFormat, ResponseFormatOptions } from './schema/response-format-for-schema';
export { JsonSchemaError } from './errors/json-schema-error';
export type { JsonSchemaErrorCode } from './errors/json-schema-error';
export type { FromAIErrorCode, FromAIErrorLocation } from './errors/from-ai-error';
// agent loop: a resumable state machine (plain-JSON state) and its in-process driver
export { createAgentState, defaultAgentConfig } from './agent/create-agent-state';
export type { AgentInput } from './agent/create-agent-state';
export type {
	AgentConfig,
	AgentFailure,
	AgentFailureCode,
	AgentResult,
	AgentState,
	AgentStatus,
	AgentStep,
	AgentToolChoice,
	AgentToolSpec,
	LimitBehavior,
	PendingToolCall,
} from './agent/agent-state';
export { nextAction } from './agent/next-action';
export type { AgentAction, ToolCallRequest } from './agent/next-action';
export { applyModelTurn } from './agent/apply-model-turn';
export { applyToolResults } from './agent/apply-tool-results';
export type { ToolCallResult } from './agent/apply-tool-results';
export { abortAgent, failAgent } from './agent/stop-agent';
export { buildChatRequest } from './agent/build-chat-request';
export { runAgent } from './agent/run-agent';
export type { AgentRunOutcome, RunAgentOptions } from './agent/run-agent';
export type { CallModel } from './agent/call-model-step';
export type { AgentEvent, AgentEventListener } from './agent/agent-event';
export { createChatModelCaller } from './agent/create-chat-model-caller';
export type { ChatConnection } from './agent/create-chat-model-caller';
export { agentToolFromLangChain, flattenConnectedTools, isLangChainToolLike } from './tools/agent-tool-from-langchain';
export type { LangChainToolLike } from './tools/agent-tool-from-langchain';
export { loadMemoryHistory, saveToMemory } from './hosts/n8n/chat-memory';
export type { ChatMemoryLike, ChatHistoryLike } from './hosts/n8n/chat-memory';
export { runWorkflowAgent, orchestratorNodeType } from './hosts/standalone/run-workflow-agent';
export { workflowNestedAgentRunner } from './hosts/standalone/workflow/run-workflow-agent-node';
export type { WorkflowSession } from './hosts/standalone/workflow/workflow-session';
export type { RunWorkflowAgentOptions, WorkflowAgentRun, FullWorkflowAgentRun, ValidatorWorkflowAgentRun } from './hosts/standalone/run-workflow-agent';
export { wireMessagesFromLangChain, langChainMessagesFromWire } from './hosts/n8n/langchain-messages';
export { sanitizeHistory } from './agent/sanitize-history';
export { AgentConfigurationError } from './errors/agent-configuration-error';
export { AgentStateError } from './errors/agent-state-error';
export { AgentStoppedError } from './agent/agent-stopped-error';
// n8n node → LangChain tool bridge, and the standalone host (workflow JSON in, tools out)
export { createNodeAsTool, toAgentTool } from './tools/create-node-as-tool';
export type { CreateNodeAsToolOptions, BridgeToolMetadata } from './tools/create-node-as-tool';
export type { NodeRunner, NodeRunResult, NodeRunError, NodeRunOptions } from './tools/node-runner';
export { formatToolOutput, DEFAULT_MAX_OUTPUT_LENGTH } from './tools/format-tool-output';
export { loadWorkflowTools, buildAgentTools, readWorkflowInput } from './hosts/standalone/load-workflow-tools';
export type { LoadWorkflowToolsOptions, WorkflowTools, WorkflowNestedAgentRunner } from './hosts/standalone/load-workflow-tools';
export { StandaloneHost } from './hosts/standalone/standalone-host';
export type { StandaloneHostOptions } from './hosts/standalone/standalone-host';
export type { CredentialRecords } from './hosts/standalone/credential-store';
export { parseWorkflow, readWorkflowFile, findAgentNames, selectAgent, findToolNodes } from './hosts/standalone/workflow-file';
export type { WorkflowExport } from './hosts/standalone/workflow-file';
export { ToolBuildError } from './errors/tool-build-error';
export type { ToolBuildProblem } from './errors/tool-build-error';
export { WorkflowFileError } from './errors/workflow-file-error';
export { AgentNotFoundError } from './errors/agent-not-found-error';
export { NodeTypeNotFoundError } from './errors/node-type-not-found-error';
export { UnsupportedNodeError } from './errors/unsupported-node-error';
export { MissingCredentialError } from './errors/missing-credential-error';
// agent modes: validator (one validated tool call, plain-JSON state machine) and nested (an agent as a tool of another agent)
export { createValidatorState, defaultValidatorConfig } from './agent/modes/validator/create-validator-state';
export type { ValidatorInput } from './agent/modes/validator/create-validator-state';
export type { ValidatorAttempt, ValidatorCall, ValidatorConfig, ValidatorFailureCode, ValidatorResult, ValidatorState, ValidatorStatus } from './agent/modes/validator/validator-state';
export { nextValidatorAction, buildValidatorRequest } from './agent/modes/validator/next-validator-action';
export type { ValidatorAction } from './agent/modes/validator/next-validator-action';
export { applyValidatorTurn, applyValidatorToolResult, failValidator } from './agent/modes/validator/apply-validator-turn';
export { runValidator } from './agent/modes/validator/run-validator';
export type { RunValidatorOptions } from './agent/modes/validator/run-validator';
export { ValidatorError } from './agent/modes/validator/validator-error';
export { nestedAgentToolSpec, isNestedAgentNode, defaultNestedPrompt } from './tools/nested-agent-tool-spec';
export type { NestedAgentToolSpec, NestedAgentNodeLike } from './tools/nested-agent-tool-spec';
export { createNestedAgentTool } from './tools/create-nested-agent-tool';
export type { CreateNestedAgentToolOptions, RunNestedAgent } from './tools/create-nested-agent-tool';
export { enterAgentFrame, defaultMaxAgentDepth } from './agent/modes/nested/agent-frame';
export type { AgentFrame, EnterAgentFrameOptions } from './agent/modes/nested/agent-frame';
export { AgentNestingError } from './errors/agent-nesting-error';
// issue 9: request options, output format, OpenRouter routing, time limits
export { isOpenRouterUrl } from './chat/is-openrouter-url';
export { withoutOpenRouterFields } from './chat/openrouter-fields';
export type { ProviderPreferences } from './chat/openrouter-fields';
export type { ChatTimeoutPhase } from './errors/chat-timeout-error';
export type { StructuredOutputConfig, StructuredOutputStrategy, OutputAttempt } from './agent/output-format/structured-output-config';
export { agentOutputItem } from './agent/output-format/agent-output-item';
export type { AgentOutputFormat } from './agent/output-format/agent-output-item';
export { resolveOutputSchema } from './agent/output-format/resolve-output-schema';
export { parseJsonAnswer } from './agent/output-format/parse-json-answer';
export { withToolTimeout } from './agent/time-limits/with-tool-timeout';
export { runTimeLimitSignal, RunTimeLimitReason } from './agent/time-limits/run-time-limit';
