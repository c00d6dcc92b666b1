import { ToolbridgeError } from './toolbridge-error';

/** Why one tool node of an agent cannot be served. */
export type UnavailableToolReason =
	/** A node of the tool (the tool node or one of its sub-nodes) is of a package that is not installed. */
	| 'PACKAGE_MISSING'
	/** The node type is not in its (installed) package, or cannot be a tool. */
	| 'NODE_TYPE_NOT_FOUND'
	/** The node kind needs something the standalone host does not have (Python, a human reviewer …). */
	| 'NODE_UNSUPPORTED'
	/** The node's own code failed to supply its tool (its server unreachable, a credential missing …). */
	| 'SUPPLY_FAILED';

/** One tool node of an agent that cannot be served, and why. */
export interface UnavailableTool {
	/** The tool node's name (connected to the agent's `ai_tool` input). */
	nodeName: string;
	/** Its node type, e.g. `@n8n/n8n-nodes-langchain.toolCalculator`. */
	nodeType: string;
	reason: UnavailableToolReason;
	/** What is wrong, for people: names the node (or sub-node), its type and what is allowed. */
	message: string;
	/** The sub-node at fault when it is not the tool node itself (a vector store's embeddings …). */
	subNodeName?: string;
	/** The package that is missing (with `PACKAGE_MISSING`). */
	packageName?: string;
}

/**
 * Tool nodes of an agent cannot be served: their packages are not installed, their kind is not
 * supported outside n8n, or their own code failed to supply the tool. Lists every one of them
 * (never only the first) and, when packages are missing, the one command that adds them.
 * Code `TOOLS_UNAVAILABLE`. Serve the others with `skipUnavailable` (`--skip-unavailable`).
 */
export class UnavailableToolsError extends ToolbridgeError {
	readonly tools: UnavailableTool[];
	/** `npm install …` adding every missing package, when some are missing. */
	readonly installCommand?: string;

	constructor(agentName: string, tools: UnavailableTool[], installCommand?: string) {
		super('TOOLS_UNAVAILABLE', UnavailableToolsError.describe(agentName, tools, installCommand));
		this.name = 'UnavailableToolsError';
		this.tools = tools;
		this.installCommand = installCommand;
	}

	/** The message: one line per tool, then the install command and how to serve the others. */
	static describe(agentName: string, tools: UnavailableTool[], installCommand?: string): string {
		const count = tools.length === 1 ? '1 tool' : `${tools.length} tools`;
		const lines = tools.map((tool) => `  - ${tool.message}`);
		if (installCommand) lines.push(`Add the missing packages with: ${installCommand}`);
		lines.push('Use --skip-unavailable (library: skipUnavailable) to serve the other tools.');
		return `Agent "${agentName}": ${count} cannot be served:\n${lines.join('\n')}`;
	}
}
