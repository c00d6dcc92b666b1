import type { IExecuteFunctions } from 'n8n-workflow';
import type { ChatMessage } from '../../../chat/types';
import { Redactor } from '../../../chat/redactor';
import type { AgentTool } from '../../../tools/agent-tool';
import { readBinaryPrompt } from '../binary/read-binary-parts';
import { inProcessAgentTool } from '../engine/in-process-agent-tool';
import { loadConnectedTools } from '../langchain/load-connected-tools';
import { connectItemMemory } from '../memory/node-memory';
import { readAgentNodeSettings, type NodeItemSettings } from '../item-run/read-agent-node-settings';
import { NodeEventSink } from '../item-run/node-event-sink';
import { traceNodeAgent } from '../item-run/trace-node-agent';
import type { AgentTrace } from '../../../tracing/agent-trace';

/** What an in-process driver runs one item with. */
export interface OpenNodeItem {
	settings: NodeItemSettings;
	/** The prompt with the item's binary parts, and the debug notes about them. */
	prompt: Awaited<ReturnType<typeof readBinaryPrompt>>;
	/** Redacts the credential's key and header values from everything the run reports. */
	redactor: Redactor;
	tools: AgentTool[];
	sink: NodeEventSink;
	memory: Awaited<ReturnType<typeof connectItemMemory>>['memory'];
	/** Starts streaming to n8n's chat (after the memory warnings that belong before it). */
	openStream: () => void;
	/** The conversation the memory holds. */
	history: ChatMessage[];
	/** The item's OpenTelemetry spans (tools already traced; `run`, `callModel`, `end`, `fail` for the rest). */
	trace: AgentTrace;
}

/**
 * Opens one item for an in-process driver (the full loop and validator mode): its settings,
 * prompt with binary parts, redactor, its spans, connected tools (traced), event sink and
 * memory, with the history loaded (under the node's "On Memory Error" policy).
 *
 * @throws {AgentConfigurationError} for bad settings, and what the readers, the tools' and
 * the memory's sub-nodes throw (a memory error only with "On Memory Error: Fail").
 */
export async function openNodeItem(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<OpenNodeItem> {
	const settings = await readAgentNodeSettings(context, itemIndex);
	const prompt = await readBinaryPrompt(context, itemIndex, settings.prompt);
	const redactor = new Redactor(settings.secrets);
	const trace = traceNodeAgent(context, settings, { prompt: prompt.prompt, redactor });
	const tools = (await loadConnectedTools(context, itemIndex))
		.map(inProcessAgentTool)
		.map(trace.tool);
	// Streamed text is redacted too (a key the model repeats must not reach n8n's chat).
	const sink = new NodeEventSink(context, itemIndex, [], redactor);
	const { memory, openStream } = await connectItemMemory(context, itemIndex, {
		policy: settings.memoryErrorPolicy,
		debugLog: settings.debugLog,
		redactor,
		sink,
	});
	const history = await memory.load();
	return { settings, prompt, redactor, tools, sink, memory, openStream, history, trace };
}
