import { ToolbridgeError } from '../../../errors/toolbridge-error';

/**
 * Raised by the engine driver on its first entry, before any model call, when a connected
 * tool cannot be traced to an n8n node (no `sourceNodeName`, none derivable), so n8n's
 * engine could not run it. The node then runs this execution in-process instead; the error
 * never reaches the user.
 */
export class UntraceableToolsError extends ToolbridgeError {
	readonly toolNames: string[];

	constructor(toolNames: string[]) {
		super(
			'ENGINE_TOOLS_UNTRACEABLE',
			`n8n did not say which node is behind tool(s) ${toolNames.map((name) => `'${name}'`).join(', ')}, so its engine cannot run them`,
		);
		this.name = 'UntraceableToolsError';
		this.toolNames = toolNames;
	}
}
