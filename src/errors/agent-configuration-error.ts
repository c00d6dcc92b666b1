import { ToolbridgeError } from './toolbridge-error';

/**
 * A setting of the agent (node option, credential field) has a value that cannot be
 * used, e.g. extra headers that are not a JSON object of strings.
 */
export class AgentConfigurationError extends ToolbridgeError {
	/** The setting at fault, e.g. `extraHeaders`. */
	readonly setting: string;

	constructor(setting: string, message: string, options?: { cause?: unknown }) {
		super('AGENT_CONFIGURATION', message, options);
		this.name = 'AgentConfigurationError';
		this.setting = setting;
	}
}
