import type { Tool } from '@n8n/ai-node-sdk';
import { toolParametersSchema, toWireTool } from '../../../chat/tool-conversion';
import type { WireTool } from '../../../chat/types';
import { ToolbridgeError } from '../../../errors/toolbridge-error';
import type { JsonSchema } from '../../../schema/json-schema';
import { modelFamilyFromModelId } from '../../../schema/model-family';

/**
 * The SDK's function tools as Chat Completions tools, their schemas (JSON Schema, or zod
 * converted) shaped for the model's family as the agent loop shapes its own.
 *
 * @throws ToolbridgeError `PROVIDER_TOOL_UNSUPPORTED` for a provider tool (e.g. a server-side
 * web search): the Chat Completions client only calls function tools.
 * @throws ToolbridgeError `ZOD_CONVERSION_UNAVAILABLE` for a zod schema without @langchain/core
 */
export function toWireTools(tools: Tool[], model: string): WireTool[] {
	const family = modelFamilyFromModelId(model);
	return tools.map((tool) => {
		if (tool.type !== 'function') {
			throw new ToolbridgeError(
				'PROVIDER_TOOL_UNSUPPORTED',
				`Tool "${tool.name}" is a provider tool (${tool.type}); the Toolbridge Chat Model calls function tools only.`,
			);
		}
		const parameters = toolParametersSchema({
			name: tool.name,
			parameters: tool.inputSchema as JsonSchema,
		});
		return toWireTool(
			{
				name: tool.name,
				description: tool.description || undefined,
				parameters,
				strict: tool.strict,
			},
			family,
		);
	});
}
