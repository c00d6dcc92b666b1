import { ToolbridgeError } from './toolbridge-error';

/** A workflow file could not be read or is not an n8n workflow export. */
export class WorkflowFileError extends ToolbridgeError {
	constructor(message: string, options?: { cause?: unknown }) {
		super('WORKFLOW_FILE_INVALID', message, options);
		this.name = 'WorkflowFileError';
	}
}
