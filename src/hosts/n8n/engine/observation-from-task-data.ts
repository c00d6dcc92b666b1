import type { IDataObject, INodeExecutionData, ITaskData } from 'n8n-workflow';
import { formatToolOutput } from '../../../tools/format-tool-output';
import type { ToolObservation } from '../../../tools/agent-tool';
import { parseJsonText } from '../../../tools/parse-json-text';

/**
 * The observation the model reads for a tool node the engine ran, from n8n's `ITaskData`:
 *
 * - a node error (`taskData.error`, also what n8n records when an ai_tool run fails and
 *   continues) → `Error: <message>` plus n8n's description, the same text the in-process
 *   path gives for n8n's tool wrapper (`makeHandleToolInvocation` + our LangChain adapter);
 * - one item `{ response }` — what n8n's LangChain-backed tool nodes (Calculator, Code
 *   Tool, …) return from `execute()` — → the response itself, as `tool.invoke` would give it;
 * - other items → `JSON.stringify(items.map(i => i.json))` (binary described, long text cut);
 * - no items → a sentence saying the node returned nothing (not an empty string).
 *
 * n8n-core runs an action's node with `{ ...agent input item json, ...arguments, toolCallId }`
 * as input, and nodes that pass their input through (Crypto, Set, …) echo it. Fields the
 * engine added that are not arguments and come back unchanged are dropped from the items, so
 * the model reads what the in-process tool call would have given.
 */
export function observationFromTaskData(
	taskData: ITaskData | undefined,
	toolName: string,
	nodeName: string,
	injected: InjectedInput = { fields: {}, arguments: {} },
): ToolObservation {
	if (!taskData) {
		return {
			content: `Error: no result came back from node "${nodeName}" for this call of '${toolName}'.`,
			isError: true,
		};
	}
	if (taskData.error) return { content: nodeErrorText(taskData.error), isError: true };
	const items = outputItems(taskData).map((item) => withoutInjectedFields(item, injected));
	if (items.length === 0) {
		return {
			content: `Tool '${toolName}' ran (node "${nodeName}") but returned no output items.`,
			isError: false,
		};
	}
	if (items.length === 1 && isResponseOnly(items[0].json)) {
		const response = items[0].json.response;
		const content = typeof response === 'string' ? response : (JSON.stringify(response) ?? '');
		const observation: ToolObservation = {
			content,
			isError: /^Error( during node execution)?:/.test(content),
		};
		const data = typeof response === 'string' ? parseJsonText(response) : response;
		if (data !== undefined) observation.data = data;
		return observation;
	}
	return { content: formatToolOutput(items), isError: false, data: items.map((item) => item.json) };
}

/** The error text of a failed node run: its message, and n8n's description when it adds something. */
export function nodeErrorText(error: { message?: unknown; description?: unknown }): string {
	const message =
		typeof error.message === 'string' && error.message !== '' ? error.message : 'Unknown error';
	const description = typeof error.description === 'string' ? error.description : '';
	return description !== '' && !message.includes(description)
		? `Error: ${message}\n\nDetails: ${description}`
		: `Error: ${message}`;
}

/** The output items of a task: the `ai_tool` output the engine rewires tool runs to, else `main`. */
export function outputItems(taskData: ITaskData): INodeExecutionData[] {
	const connections = taskData.data ?? {};
	const output = connections.ai_tool ?? connections.main ?? Object.values(connections)[0];
	return (output ?? []).flatMap((branch) => branch ?? []);
}

/** What n8n-core merged into an action's node input besides the model's arguments. */
export interface InjectedInput {
	/** The agent's input item json and `toolCallId`. */
	fields: IDataObject;
	/** The model's arguments: kept even when they equal an injected field. */
	arguments: IDataObject;
}

function withoutInjectedFields(
	item: INodeExecutionData,
	injected: InjectedInput,
): INodeExecutionData {
	if (!item.json) return item;
	const json: IDataObject = {};
	for (const [key, value] of Object.entries(item.json)) {
		const echoed =
			!Object.hasOwn(injected.arguments, key) &&
			Object.hasOwn(injected.fields, key) &&
			JSON.stringify(injected.fields[key]) === JSON.stringify(value);
		if (!echoed) json[key] = value;
	}
	return { ...item, json };
}

function isResponseOnly(
	json: IDataObject | undefined,
): json is IDataObject & { response: unknown } {
	return json !== undefined && Object.keys(json).length === 1 && 'response' in json;
}
