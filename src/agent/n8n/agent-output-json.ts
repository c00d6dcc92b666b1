import type { IDataObject } from 'n8n-workflow';
import type { AgentResult } from '../agent-state';

/** The output item json of a finished run: `output`, and the details the node options ask for. */
export function agentOutputJson(result: AgentResult, options: { returnIntermediateSteps: boolean; debugLog?: string[] }): IDataObject {
	const json: IDataObject = { output: result.output };
	if (options.returnIntermediateSteps) {
		json.steps = result.steps as unknown as IDataObject[];
		json.usage = result.usage as unknown as IDataObject;
		json.iterations = result.iterations;
		json.reasoning = result.reasoning;
		json.stopReason = result.stopReason;
	}
	if (options.debugLog) json.debugLog = options.debugLog;
	return json;
}
