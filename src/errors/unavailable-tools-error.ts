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
	/** The agent whose `ai_tool` input the node is on. */
	agentName: string;
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

	constructor(tools: UnavailableTool[], installCommand?: string) {
		super('TOOLS_UNAVAILABLE', UnavailableToolsError.describe(tools, installCommand));
		this.name = 'UnavailableToolsError';
		this.tools = tools;
		this.installCommand = installCommand;
	}

	/** The message: one line per tool (under its agent), then the install command and how to serve the others. */
	static describe(tools: UnavailableTool[], installCommand?: string): string {
		const count = tools.length === 1 ? '1 tool' : `${tools.length} tools`;
		const lines: string[] = [];
		for (const agentName of new Set(tools.map((tool) => tool.agentName))) {
			lines.push(`Agent "${agentName}":`);
			for (const tool of tools) if (tool.agentName === agentName) lines.push(`  - ${tool.message}`);
		}
		if (installCommand) lines.push(`Add the missing packages with: ${installCommand}`);
		lines.push('Use --skip-unavailable (library: skipUnavailable) to serve the other tools.');
		return `${count} cannot be served:\n${lines.join('\n')}`;
	}
}
