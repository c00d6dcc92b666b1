import type { EngineResponse, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { isEngineResumption } from '../engine/read-engine-metadata';
import { UntraceableToolsError } from '../engine/untraceable-tools-error';
import { chooseToolExecution, type ToolExecutionChoice } from './choose-tool-execution';
import { runAgentEngine, type AgentEngineOutput } from '../engine/run-agent-engine';
import { runAgentNodeItem } from './run-agent-node-item';
import { readItemBatching, runItemBatches } from '../item-run/run-item-batches';

/**
 * One execution of the node in full mode: the engine driver where this n8n can take engine
 * requests from this run and every tool can be traced to its node (see
 * `chooseToolExecution`, `UntraceableToolsError`); otherwise the in-process driver, in
 * batches of items ("Batch Processing", see `runItemBatches`), with one `[DEBUG]` line
 * saying why (when the default "Engine" was not possible).
 * A resumption (n8n calling back with tool results) always continues on the engine driver.
 *
 * @throws what `failItem` throws for a failed item (the node's error).
 */
export async function runFullMode(
	context: IExecuteFunctions,
	response: EngineResponse | undefined,
	failItem: (error: unknown, itemIndex: number) => INodeExecutionData,
): Promise<AgentEngineOutput> {
	if (isEngineResumption(response)) return await runAgentEngine(context, response, { failItem });
	let choice: ToolExecutionChoice;
	try {
		choice = chooseToolExecution(context, response);
	} catch (error) {
		// A configuration error: every item fails the same way.
		return [context.getInputData().map((_item, itemIndex) => failItem(error, itemIndex))];
	}
	if (choice.driver === 'engine') {
		try {
			return await runAgentEngine(context, response, { failItem });
		} catch (error) {
			if (!(error instanceof UntraceableToolsError)) throw error;
			choice = { driver: 'in-process', reason: error.message };
		}
	}
	const debugNotes = choice.reason.startsWith('the option')
		? []
		: [`[DEBUG] Tool Execution: in-process for this run: ${choice.reason}`];
	return [
		await runItemBatches(
			context.getInputData().length,
			async (itemIndex) => {
				try {
					return await runAgentNodeItem(context, itemIndex, { debugNotes });
				} catch (error) {
					return failItem(error, itemIndex);
				}
			},
			{ ...readItemBatching(context), signal: context.getExecutionCancelSignal?.() },
		),
	];
}
