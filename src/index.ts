/**
 * n8n-nodes-toolbridge — the public surface, grouped as the README's "Library" section
 * groups it. These names are public and stable; everything not exported here is internal
 * and may change in any release.
 */
import { assertPeerDependencies } from './hosts/assert-peer-dependencies';

// Before any module below requires n8n's libraries: outside n8n, say what to install.
assertPeerDependencies();

// 1. $fromAI compiler: text → markers → schema → tool name and description
export { findFromAICalls } from './from-ai/find-from-ai-calls';
export { collectFromAIMarkers } from './from-ai/collect-from-ai-markers';
export type {
	CollectFromAIMarkersOptions,
	CollectedFromAIMarkers,
} from './from-ai/collect-from-ai-markers';
export type {
	FromAIMarker,
	FromAIParameterMarker,
	FromAIType,
	FromAIJsonValue,
	FromAISpan,
} from './from-ai/from-ai-marker';
export { buildToolSchema } from './schema/build-tool-schema';
export type { ToolSchema, ToolJsonSchema } from './schema/build-tool-schema';
export { mergeFromAIMarkers } from './schema/merge-from-ai-markers';
export type {
	ToolParameter,
	SchemaMarker,
	MergeFromAIMarkersOptions,
} from './schema/merge-from-ai-markers';
export { toolNameFromNodeName, nodeNameToN8nToolName } from './schema/tool-name-from-node-name';
export { buildToolDescription } from './schema/build-tool-description';
export type {
	BuildToolDescriptionOptions,
	ToolDescriptionNode,
	ToolDescriptionNodeType,
} from './schema/build-tool-description';
export type { JsonSchema } from './schema/json-schema';

// 2. Schemas for models: per-family shaping, structured output, validation, tool formats
export { shapeToolSchema } from './schema/shape-tool-schema';
export type { SchemaTarget } from './schema/shape-tool-schema';
export { modelFamilyFromModelId } from './schema/model-family';
export type { ModelFamily } from './schema/model-family';
export { inferJsonSchemaFromExample } from './schema/infer-json-schema';
export { responseFormatForSchema } from './schema/response-format-for-schema';
export type {
	JsonSchemaResponseFormat,
	ResponseFormatOptions,
} from './schema/response-format-for-schema';
export { validateJson, validateJsonSchema } from './schema/validate-json';
export type { JsonValidationResult } from './schema/validate-json';
export { describeSchemaProblem } from './schema/schema-problems';
export type { SchemaProblem } from './schema/schema-problems';
export { zodToJsonSchema } from './schema/zod-to-json-schema';
export { toOpenAITool, toAnthropicTool, toProviderToolChoice } from './chat/tool-conversion';
export type {
	ToolDefinitionLike,
	ToolChoice,
	AnthropicTool,
	AnthropicToolChoice,
	GoogleToolConfig,
} from './chat/tool-conversion';

// 3. Tools: any n8n node as a tool
export type {
	AgentTool,
	CompiledTool,
	ToolObservation,
	ToolInvokeOptions,
} from './tools/agent-tool';
export { createNodeAsTool } from './tools/create-node-as-tool';
export type { CreateNodeAsToolOptions } from './tools/create-node-as-tool';
export { toLangChainTool } from './tools/langchain-tool-view';
export type { BridgeToolMetadata, LangChainToolViewOptions } from './tools/langchain-tool-view';
export type { NodeRunner, NodeRunResult, NodeRunError, NodeRunOptions } from './tools/node-runner';
export { agentToolFromLangChain } from './tools/agent-tool-from-langchain';
export type { LangChainToolLike } from './tools/agent-tool-from-langchain';
export { formatToolOutput, DEFAULT_MAX_OUTPUT_LENGTH } from './tools/format-tool-output';
export { DEFAULT_MAX_ATTACHMENTS, DEFAULT_MAX_ATTACHMENT_BYTES } from './tools/tool-attachment';
export type { ToolAttachment, AttachmentLimits } from './tools/tool-attachment';

// 4. Chat client: OpenRouter / OpenAI-compatible streaming
export type * from './chat/types';
export { streamChat, defaultChatTimeoutMs } from './chat/stream-chat';
export type { ChatClientOptions, RetryEvent } from './chat/stream-chat';
export { collectTurn } from './chat/collect-turn';
export type { StreamPartListener } from './chat/collect-turn';
export { chatCompletion } from './chat/chat-completion';
export { parseToolArguments } from './chat/parse-tool-arguments';
export type { RetryOptions } from './chat/retry-policy';
export type { ProviderPreferences } from './chat/openrouter-fields';
export { Redactor } from './chat/redactor';

// 5. Agent loop: a resumable plain-JSON state machine, its in-process driver, validator mode
export { runAgent } from './agent/run-agent';
export type { AgentRunOutcome, RunAgentOptions } from './agent/run-agent';
export type { CallModel, CallModelOptions } from './agent/call-model-step';
export type { ModelSettings } from './agent/model-options';
export type { ChatServer } from './chat/chat-server';
export { createChatModelCaller } from './agent/create-chat-model-caller';
export { withToolTimeout } from './agent/time-limits/with-tool-timeout';
export { gateToolWithReview, toolReviewRefusal, noReviewerDecision } from './tools/tool-review';
export type {
	ToolReview,
	ToolReviewDecision,
	ToolReviewRequest,
	ToolReviewSpec,
	ToolReviewer,
} from './tools/tool-review';
export { defaultRunTimeLimits } from './agent/time-limits/default-time-limits';
export type { ChatConnection } from './agent/create-chat-model-caller';
// Any LangChain chat model (ChatOpenAI, ChatAnthropic, ChatGoogleGenerativeAI, ChatOllama …) as the loop's model.
export { createLangChainModelCaller } from './langchain/langchain-model-caller';
export type { LangChainChatModelLike } from './langchain/langchain-model-caller';
export { createAgentState, defaultAgentConfig } from './agent/create-agent-state';
export type { AgentInput } from './agent/create-agent-state';
export { nextAction } from './agent/next-action';
export type { AgentAction, ToolCallRequest } from './agent/next-action';
export { applyModelTurn } from './agent/apply-model-turn';
export { applyToolResults } from './agent/apply-tool-results';
export type { ToolCallResult } from './agent/apply-tool-results';
export { abortAgent, failAgent } from './agent/stop-agent';
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
export type { AgentEvent, AgentEventListener } from './agent/agent-event';
export { OutputBoundary } from './agent/output-boundary';
export type { OutputBoundaryOptions } from './agent/output-boundary';
export type {
	StructuredOutputConfig,
	StructuredOutputStrategy,
	OutputAttempt,
} from './agent/output-format/structured-output-config';
export { runValidator } from './agent/modes/validator/run-validator';
export type { RunValidatorOptions } from './agent/modes/validator/run-validator';
export {
	createValidatorState,
	defaultValidatorConfig,
} from './agent/modes/validator/create-validator-state';
export type { ValidatorInput } from './agent/modes/validator/create-validator-state';
export type {
	ValidatorAttempt,
	ValidatorCall,
	ValidatorConfig,
	ValidatorFailureCode,
	ValidatorResult,
	ValidatorState,
	ValidatorStatus,
} from './agent/modes/validator/validator-state';

// 6. Standalone host: a workflow export in, real n8n nodes run through n8n-core, no server
export { loadWorkflowTools } from './hosts/standalone/load-workflow-tools';
export type {
	LoadWorkflowToolsOptions,
	WorkflowTools,
	WorkflowNestedAgentRunner,
} from './hosts/standalone/load-workflow-tools';
export {
	runWorkflowAgent,
	runSessionAgent,
	orchestratorNodeType,
} from './hosts/standalone/run-workflow-agent';
export type {
	RunWorkflowAgentOptions,
	SessionAgentInput,
	WorkflowAgentRun,
	FullWorkflowAgentRun,
	ValidatorWorkflowAgentRun,
} from './hosts/standalone/run-workflow-agent';
export type {
	UserMessageChoice,
	UserMessageReason,
} from './hosts/standalone/workflow/choose-user-message';
export { workflowNestedAgentRunner } from './hosts/standalone/session/run-workflow-agent-node';
export { createSessionRedactor } from './hosts/standalone/session/workflow-session';
export type { WorkflowSession } from './hosts/standalone/session/workflow-session';
export { openWorkflowSession } from './hosts/standalone/session/open-workflow-session';
export type {
	OpenWorkflowSessionOptions,
	OpenedWorkflowSession,
} from './hosts/standalone/session/open-workflow-session';
export { StandaloneHost } from './hosts/standalone/standalone-host';
export { emitNodeLogLine, withNodeLogListener } from './hosts/standalone/node-log-lines';
export type { NodeLogLevel, NodeLogLine, NodeLogListener } from './hosts/standalone/node-log-lines';
export { toolVariantDescription } from './hosts/standalone/derive-tool-node-type';
export type { StandaloneHostOptions, NodeRunGuard } from './hosts/standalone/standalone-host';
export type { WorkflowsSource } from './hosts/standalone/sub-workflows/workflow-library';
export type { CredentialRecords } from './hosts/standalone/credential-store';
export { onUncontainedError } from './hosts/standalone/node-run-containment';
export type { UncontainedErrorHandler } from './hosts/standalone/node-run-containment';
export {
	parseWorkflow,
	readWorkflowFile,
	readWorkflowInput,
	findAgentNames,
	selectAgent,
	findToolNodes,
} from './hosts/standalone/workflow-file';
export type { WorkflowExport } from './hosts/standalone/workflow-file';

// 7. Errors: every error this package throws is a ToolbridgeError with a stable `code`
export { ToolbridgeError } from './errors/toolbridge-error';
export { InvalidArgumentError } from './errors/invalid-argument-error';
export { PeerDependencyError } from './errors/peer-dependency-error';
export { FromAIError, FromAIKeyConflictError } from './errors/from-ai-error';
export type { FromAIErrorCode, FromAIErrorLocation } from './errors/from-ai-error';
export { JsonSchemaError } from './errors/json-schema-error';
export type { JsonSchemaErrorCode } from './errors/json-schema-error';
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
export type { ChatTimeoutPhase } from './errors/chat-timeout-error';
export { MidStreamError } from './errors/mid-stream-error';
export { IncompleteStreamError } from './errors/incomplete-stream-error';
export { InvalidChunkError } from './errors/invalid-chunk-error';
export { ToolArgumentsError } from './errors/tool-arguments-error';
export { AgentConfigurationError } from './errors/agent-configuration-error';
export { AgentStateError } from './errors/agent-state-error';
export { AgentStoppedError } from './agent/agent-stopped-error';
export { addUsage, emptyUsage } from './agent/add-usage';
export { AgentNestingError } from './errors/agent-nesting-error';
export { ValidatorError } from './agent/modes/validator/validator-error';
export { ToolBuildError } from './errors/tool-build-error';
export type { ToolBuildProblem } from './errors/tool-build-error';
export { WorkflowFileError } from './errors/workflow-file-error';
export { AgentNotFoundError } from './errors/agent-not-found-error';
export { UnresolvedNodeReferenceError } from './errors/unresolved-node-reference-error';
export { NodeTypeNotFoundError } from './errors/node-type-not-found-error';
export { UnavailableToolsError } from './errors/unavailable-tools-error';
export type { UnavailableTool, UnavailableToolReason } from './errors/unavailable-tools-error';
export { UnsupportedNodeError } from './errors/unsupported-node-error';
export { SubWorkflowError } from './errors/sub-workflow-error';
export type { SubWorkflowProblem } from './errors/sub-workflow-error';
export { MissingCredentialError } from './errors/missing-credential-error';
export { StrayNodeError } from './errors/stray-node-error';
export { NestedAgentUnavailableError } from './errors/nested-agent-unavailable-error';
export { EngineStateError } from './errors/engine-state-error';
export { SessionBusyError } from './errors/session-busy-error';
export { MemoryUnavailableError } from './errors/memory-unavailable-error';
export type { AgentMemoryInfo } from './hosts/standalone/workflow/agent-memory';
export {
	inProcessConversationStore,
	type ConversationStore,
	type InProcessStoreLimits,
} from './hosts/standalone/conversation-store';
