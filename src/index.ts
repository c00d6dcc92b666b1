/**
 * n8n-nodes-toolbridge — the public surface. Everything exported here is named;
 * whatever is not exported is internal.
 */
export { ToolbridgeError } from './errors/toolbridge-error';
export type * from './chat/types';
export type { AgentTool, ToolObservation, ToolInvokeOptions } from './agent/agent-tool';
