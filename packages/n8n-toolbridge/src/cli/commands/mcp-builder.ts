import type { StandaloneHost } from 'n8n-nodes-toolbridge';
import type { McpTool } from '../../mcp/mcp-tool';
import { connectionFrom } from '../host-options';

/** Help lines of `toolbridge mcp --builder`. */
export const builderOptionHelp = `  --builder            offer the workflow builder's tools: search_nodes, get_nodes,
                       validate_workflow (SDK code or JSON, agents' tools loaded) and
                       build_workflow (on --model/--base-url/--api-key); the workflow file
                       is then optional`;

/**
 * The builder's MCP tools for `toolbridge mcp --builder` (src/builder/mcp-builder-tools.ts), over
 * the server's host; node descriptions are read (LangChain's fetched once if needed) at start.
 * @throws {NodeDescriptionsError} when LangChain's descriptions cannot be found or fetched.
 */
export async function builderToolsFor(
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
	host: StandaloneHost,
	packageDirs: string[] | undefined,
	log: (line: string) => void,
): Promise<McpTool[]> {
	// The builder (and @n8n/workflow-sdk) loads only for --builder.
	const { NodeCatalog } = await import('../../builder/catalog/node-catalog');
	const { builderMcpTools } = await import('../../builder/mcp-builder-tools');
	const catalog = await NodeCatalog.load({
		host,
		langChain: { packageDirs, env, onNotice: log },
	});
	return builderMcpTools({ catalog, host, model: connectionFrom(values, env) });
}
