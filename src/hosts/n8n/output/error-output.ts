import type { IDataObject } from 'n8n-workflow';
import { AgentStoppedError } from '../../../agent/agent-stopped-error';
import { ToolbridgeError } from '../../../errors/toolbridge-error';

/**
 * The output item of a failed run when the node continues on fail: `error` (the
 * message), `code` for this package's errors, and the steps taken when a limit stopped
 * the run.
 */
export function errorOutput(error: unknown): IDataObject {
	const json: IDataObject = { error: error instanceof Error ? error.message : String(error) };
	if (ToolbridgeError.isInstance(error)) json.code = error.code;
	if (error instanceof AgentStoppedError) {
		json.steps = error.steps as unknown as IDataObject[];
		json.iterations = error.iterations;
		json.usage = error.usage as unknown as IDataObject;
	}
	return json;
}
