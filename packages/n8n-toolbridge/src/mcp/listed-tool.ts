import { toJsonSchema2020 } from './json-schema-2020';
import type { McpTool } from './mcp-tool';

/** A tool as `tools/list` lists it (the SDK's `Tool` shape, without loading the SDK). */
export interface ListedTool {
	name: string;
	title?: string;
	description?: string;
	inputSchema: Record<string, unknown>;
	annotations?: Record<string, unknown>;
}

/**
 * How `tools/list` lists `tool` to a client of `era`: 2026-07-28 clients get the input schema
 * as JSON Schema 2020-12 (that revision's default dialect), 2025 clients the schema the model
 * sees; the title and annotations when there are some.
 */
export function listedTool(tool: McpTool, era: 'legacy' | 'modern'): ListedTool {
	const listed: ListedTool = {
		name: tool.name,
		description: tool.description,
		inputSchema: (era === 'modern'
			? toJsonSchema2020(tool.inputSchema)
			: tool.inputSchema) as unknown as Record<string, unknown>,
	};
	if (tool.title !== undefined) listed.title = tool.title;
	if (tool.annotations && Object.keys(tool.annotations).length > 0)
		listed.annotations = { ...(tool.title ? { title: tool.title } : {}), ...tool.annotations };
	return listed;
}
