import { isOpenRouterUrl } from '../chat/is-openrouter-url';

/**
 * The OpenTelemetry GenAI semantic conventions this package writes (spec status
 * "Development"; names as in `@opentelemetry/semantic-conventions/incubating` 1.45).
 */
export const GEN_AI = {
	operation: 'gen_ai.operation.name',
	provider: 'gen_ai.provider.name',
	agentName: 'gen_ai.agent.name',
	requestModel: 'gen_ai.request.model',
	requestTemperature: 'gen_ai.request.temperature',
	requestMaxTokens: 'gen_ai.request.max_tokens',
	responseModel: 'gen_ai.response.model',
	finishReasons: 'gen_ai.response.finish_reasons',
	inputTokens: 'gen_ai.usage.input_tokens',
	outputTokens: 'gen_ai.usage.output_tokens',
	toolName: 'gen_ai.tool.name',
	toolCallId: 'gen_ai.tool.call.id',
	toolType: 'gen_ai.tool.type',
	// Content: only when asked for (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true).
	inputMessages: 'gen_ai.input.messages',
	outputMessages: 'gen_ai.output.messages',
	toolArguments: 'gen_ai.tool.call.arguments',
	toolResult: 'gen_ai.tool.call.result',
	serverAddress: 'server.address',
	serverPort: 'server.port',
	errorType: 'error.type',
} as const;

/** `gen_ai.provider.name` for a Chat Completions base URL: `openrouter`, else `openai` (the API it speaks). */
export function providerOf(baseUrl: string | undefined): string {
	return baseUrl !== undefined && isOpenRouterUrl(baseUrl) ? 'openrouter' : 'openai';
}

/** `server.address` and `server.port` of a base URL (host and port only: never its user, password or path). */
export function serverOf(baseUrl: string | undefined): Record<string, string | number> {
	if (baseUrl === undefined) return {};
	try {
		const url = new URL(baseUrl);
		const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
		return { [GEN_AI.serverAddress]: url.hostname, [GEN_AI.serverPort]: port };
	} catch {
		return {};
	}
}

/** `error.type`: a ToolbridgeError's stable code, else the error's class name (never its message). */
export function errorTypeOf(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code === 'string' && code !== '') return code;
	return error instanceof Error ? error.name : 'Error';
}
