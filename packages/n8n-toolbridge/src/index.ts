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
