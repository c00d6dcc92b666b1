import type { IDataObject } from 'n8n-workflow';
import type { AgentResult } from '../../../agent/agent-state';
import { agentOutputItem } from '../../../agent/output-format/agent-output-item';
import type { AgentNodeSettings } from '../../../node-settings/agent-node-settings';

/**
 * The output item json of a finished run of the node, from its settings: the "Output
 * Format" (text, json, full), "Return Intermediate Steps" and the debug log. Both drivers
 * build their items through {@link agentOutputItem}, so an item is the same whichever
 * driver ran the loop.
 */
export function agentOutputJson(
	result: AgentResult,
	settings: Pick<AgentNodeSettings, 'outputFormat' | 'returnIntermediateSteps' | 'debugLog'>,
	debugLog: string[],
): IDataObject {
	// The run's JSON values are plain JSON, which is what IDataObject describes.
	return agentOutputItem(result, {
		format: settings.outputFormat,
		returnIntermediateSteps: settings.returnIntermediateSteps,
		debugLog: settings.debugLog ? debugLog : undefined,
	}) as IDataObject;
}
