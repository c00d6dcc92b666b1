/**
 * n8n-toolbridge — the standalone library: everything n8n-nodes-toolbridge exports (the
 * `$fromAI` compiler, the chat client, the agent loop, the standalone host), plus the servers
 * of the `toolbridge` CLI and the private-network guard. Installing this package brings n8n's
 * libraries along, so it works outside n8n.
 */
export * from 'n8n-nodes-toolbridge';
// MCP server (official SDK v2: 2026-07-28 and 2025 clients, stateless over HTTP)
export { createMcpServer, mcpServerFactory } from './mcp/create-mcp-server';
export type { McpServerOptions, McpServerFactory } from './mcp/create-mcp-server';
export { workflowServerDescription } from './mcp/mcp-description';
export type { McpServerDescription } from './mcp/mcp-description';
export { toolAnnotations, annotationsFromNotes } from './mcp/tool-annotations';
export type { McpToolAnnotations } from './mcp/tool-annotations';
export { toJsonSchema2020 } from './mcp/json-schema-2020';
export { mcpToolFromAgentTool } from './mcp/mcp-tool';
export type { McpTool, McpToolCallContext } from './mcp/mcp-tool';
export { workflowAgentMcpTool } from './mcp/workflow-agent-tool';
export type { WorkflowAgentToolOptions } from './mcp/workflow-agent-tool';
export { toolCallResult } from './mcp/tool-call-result';
export type { ToolCallResult } from './mcp/tool-call-result';
export { serveMcpStdio } from './mcp/serve-mcp-stdio';
export type { McpStdioOptions } from './mcp/serve-mcp-stdio';
export { serveMcpHttp } from './mcp/serve-mcp-http';
export type { McpHttpOptions } from './mcp/serve-mcp-http';
// OpenAI-compatible server
export { serveOpenAI } from './openai/serve-openai';
export type { OpenAIServerOptions } from './openai/serve-openai';
export { parseChatRequest } from './openai/parse-chat-request';
export type { ChatCompletionCall } from './openai/parse-chat-request';
// HTTP: where servers listen and what they refuse
export {
	parseListenAddress,
	isLoopbackHost,
	assertSafeBinding,
	DEFAULT_HOST,
} from './http/listen-address';
export type { ListenAddress } from './http/listen-address';
export type { RunningHttpServer } from './http/start-http-server';
export { HttpError } from './http/http-error';
export { ServerConfigurationError } from './errors/server-configuration-error';
// private-network guard for URLs the model chooses
export { privateNetworkGuard, NETWORK_REFUSED_ERROR } from './network/private-network-guard';
export { NetworkGuard, EXTRA_BLOCKED_RANGES } from './network/network-guard';
export type { NetworkGuardOptions, NetworkRefusal, NetworkCheck } from './network/network-guard';
export { nodesWithModelChosenUrls, isUrlParameterPath } from './network/model-chosen-urls';
// Workflow builder: a workflow from a sentence, its code read without running it, checked and loaded
export {
	buildWorkflow,
	DEFAULT_BUILD_ITERATIONS,
	MAX_PARSE_FAILURES,
} from './builder/agent/build-workflow';
export type {
	BuildWorkflowOptions,
	BuildResult,
	BuildEvent,
	BuildStopReason,
} from './builder/agent/build-workflow';
export type { BuilderModelOptions } from './builder/agent/builder-connection';
export { NodeCatalog } from './builder/catalog/node-catalog';
export type {
	NodeCatalogOptions,
	CatalogNodeType,
	CatalogPackage,
} from './builder/catalog/node-catalog';
export { findLangChainPackage, builderCacheDir } from './builder/catalog/langchain-package';
export type {
	FindLangChainPackageOptions,
	LangChainPackage,
} from './builder/catalog/langchain-package';
export { NodeDescriptionsError } from './builder/catalog/node-descriptions-error';
export { searchNodes } from './builder/discovery/search-nodes';
export { getNodes, nodeTypeText } from './builder/discovery/get-nodes';
export type { NodeTypeRequest } from './builder/discovery/get-nodes';
export { parseWorkflowCode } from './builder/code/parse-workflow-code';
export type { ParsedWorkflowCode } from './builder/code/parse-workflow-code';
export { WorkflowCodeError } from './builder/code/workflow-code-error';
export type { WorkflowCodeProblem } from './builder/code/workflow-code-error';
export { checkWorkflowCode, checkWorkflowJson } from './builder/validate/check-workflow';
export type { WorkflowCheck, CheckContext } from './builder/validate/check-workflow';
export type { BuildIssue, BuildIssueSource } from './builder/validate/build-issue';
export type { AgentToolsLoad } from './builder/validate/check-agent-tools';
export { finishWorkflow } from './builder/finish-workflow';
export type {
	BuiltWorkflow,
	CredentialNeeded,
	FinishWorkflowOptions,
} from './builder/finish-workflow';
export { builderMcpTools } from './builder/mcp-builder-tools';
export type { BuilderMcpToolsOptions } from './builder/mcp-builder-tools';
