import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { chatCompletionsUrl } from '../../../chat/chat-completions-url';
import { requestHeaders } from '../../../chat/http/request-headers';
import { Redactor } from '../../../chat/redactor';
import { ToolbridgeError } from '../../../errors/toolbridge-error';
import { readCredentialConnection } from '../../../node-settings/read-credential-connection';

/** How long the model list may take before the dropdown shows an error. */
export const modelListTimeoutMs = 15_000;

/** One entry of `GET /models` (OpenAI's shape; OpenRouter adds `name`, `context_length`, `supported_parameters` …). */
interface ModelEntry {
	id?: unknown;
	name?: unknown;
	context_length?: unknown;
	supported_parameters?: unknown;
}

/**
 * The `searchModels` list-search method of the Model parameter (AgentOrchestrator 1.1 and the
 * Toolbridge Chat Model): `GET {baseUrl}/models` of the node's credential, with its key and
 * extra headers. Models whose `supported_parameters` list `tools` (OpenRouter reports them)
 * come first, then the others, each group by id; `filter` keeps the models whose id or name
 * contains it (case-insensitive).
 *
 * @throws ToolbridgeError `MODEL_LIST_FAILED` when the server cannot be reached, answers with
 * an error status or without a `data` list (never with the key or header values in it).
 * @throws {AgentConfigurationError} for a credential without a base URL.
 */
export async function searchModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// The load-options context takes no item index.
	const credential = await readCredentialConnection(
		(name, fallback) => this.getNodeParameter(name, fallback as never),
		(type) => this.getCredentials(type),
	);
	const redactor = new Redactor([credential.apiKey, ...Object.values(credential.headers)]);
	const url = chatCompletionsUrl(credential.baseUrl).replace(/\/chat\/completions$/, '/models');
	const failed = (reason: string) =>
		new ToolbridgeError(
			'MODEL_LIST_FAILED',
			redactor.text(
				`Could not list the models of ${url}: ${reason}. Give the model id "By ID" instead.`,
			),
		);

	let response: Response;
	try {
		const { 'Content-Type': _json, ...headers }: Record<string, string> = {
			...requestHeaders({ apiKey: credential.apiKey, headers: credential.headers }),
			Accept: 'application/json',
		};
		response = await fetch(url, { headers, signal: AbortSignal.timeout(modelListTimeoutMs) });
	} catch (error) {
		const timedOut = (error as Error).name === 'TimeoutError';
		throw failed(
			timedOut
				? `no answer within ${modelListTimeoutMs / 1000} s`
				: `the connection failed (${(error as Error).message})`,
		);
	}
	const body = await response.text();
	if (!response.ok) throw failed(`HTTP ${response.status}${errorMessageOf(body)}`);
	let entries: unknown;
	try {
		entries = (JSON.parse(body) as { data?: unknown }).data;
	} catch {
		entries = undefined;
	}
	if (!Array.isArray(entries)) throw failed('the answer has no "data" list of models');
	return { results: modelResults(entries as ModelEntry[], filter) };
}

/** The dropdown entries: tool-calling models first, then by id; filtered by id or name. */
export function modelResults(entries: ModelEntry[], filter?: string): INodeListSearchItems[] {
	const needle = (filter ?? '').trim().toLowerCase();
	return entries
		.filter(
			(entry): entry is ModelEntry & { id: string } =>
				typeof entry.id === 'string' && entry.id !== '',
		)
		.map((entry) => ({
			entry,
			name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : entry.id,
			tools: toolSupport(entry),
		}))
		.filter(
			({ entry, name }) =>
				needle === '' ||
				entry.id.toLowerCase().includes(needle) ||
				name.toLowerCase().includes(needle),
		)
		.sort(
			(left, right) =>
				Number(right.tools === true) - Number(left.tools === true) ||
				left.entry.id.localeCompare(right.entry.id),
		)
		.map(({ entry, name, tools }) => {
			const item: INodeListSearchItems = { name, value: entry.id };
			const description = [
				name !== entry.id ? entry.id : undefined,
				tools === false ? 'no tool calling' : undefined,
				contextText(entry.context_length),
			]
				.filter(Boolean)
				.join(' · ');
			if (description !== '') item.description = description;
			return item;
		});
}

/** true / false when the server says whether the model takes `tools`; undefined when it does not say. */
function toolSupport(entry: ModelEntry): boolean | undefined {
	return Array.isArray(entry.supported_parameters)
		? entry.supported_parameters.includes('tools')
		: undefined;
}

function contextText(length: unknown): string | undefined {
	return typeof length === 'number' && length > 0
		? `${Math.round(length / 1000)}k context`
		: undefined;
}

/** The server's own error message (`error.message`), cut short. */
function errorMessageOf(body: string): string {
	try {
		const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
		if (typeof message === 'string' && message !== '') return `: ${message.slice(0, 300)}`;
	} catch {
		// Not JSON: the status says enough.
	}
	return '';
}
