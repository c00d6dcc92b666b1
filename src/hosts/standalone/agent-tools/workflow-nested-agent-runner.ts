import type { INode } from 'n8n-workflow';

/**
 * Runs a nested agent node of a workflow (an Agent Orchestrator in nested mode, n8n's AI Agent
 * Tool) and resolves with its final answer.
 */
export type WorkflowNestedAgentRunner = (
	node: INode,
	/** The prompt with the caller's arguments filled in; absent: the node's own (its parameters already filled). */
	prompt: string | undefined,
	options: { args: Record<string, unknown>; signal?: AbortSignal },
) => Promise<string>;
