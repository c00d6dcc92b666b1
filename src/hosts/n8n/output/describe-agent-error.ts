import { ToolbridgeError } from '../../../errors/toolbridge-error';

const hints: Record<string, string> = {
	// The loop (AgentStoppedError).
	AGENT_MAX_ITERATIONS:
		'Raise "Max Iterations", or set "On Max Iterations" to "Final Answer" to get an answer from what the tools returned so far.',
	AGENT_REPEATED_CALL:
		'The model kept calling the same tool with the same arguments. Improve the tool description or system message, or raise "Repeated Call Limit".',
	AGENT_EMPTY_ANSWER:
		'The model gave no text when asked for a final answer. Try another model or a higher "Max Tokens".',
	AGENT_MODEL_ERROR:
		"A model call failed for good after its retries. Check the credential, the model name and the provider's status, then run again.",
	AGENT_INVALID_OUTPUT:
		'The answer did not match the "Output Schema", also after one repair attempt (both attempts\' errors are in the message). Simplify the schema, describe its fields in the prompt, set "Output Strategy" to the other method, or choose a model that supports structured output.',
	AGENT_CONFIGURATION: 'Check the node parameters and the credential.',
	AGENT_STATE:
		'The agent\'s saved state could not take this step: a bug in this package. Please report it with the debug log ("Debug Log" option).',
	AGENT_NESTING_DEPTH:
		'Nested agents call each other deeper than allowed. Raise "Max Depth" on the nested Agent Orchestrator, or flatten the chain.',
	AGENT_NESTING_CYCLE:
		'An agent would call itself through a chain of nested agents. Remove the tool connection that closes the loop.',
	AGENT_NOT_FOUND:
		'No agent node (one with tools on its "Tool" input) matches. Name the agent node to run.',
	ENGINE_STATE:
		'n8n resumed this node with data that holds no run of this package (lost between re-entries or written by another version). Run the workflow again, or set "Tool Execution" to "In-Process".',
	NESTED_AGENT_UNAVAILABLE:
		'A nested agent needs a model connection to run here. Run it inside n8n or with "toolbridge run".',
	// Validator mode (ValidatorError).
	VALIDATOR_ATTEMPTS_EXHAUSTED:
		"The model's tool arguments failed validation on every attempt (each attempt's errors are in the message). Raise \"Max Attempts\", or make the tool's $fromAI descriptions clearer.",
	VALIDATOR_TOOL_FAILED:
		'The connected tool failed when it ran with the validated arguments. Check the tool node\'s settings and credential; "Validate Only" checks the arguments without running it.',
	VALIDATOR_MODEL_ERROR:
		"A model call failed for good after its retries. Check the credential, the model name and the provider's status.",
	VALIDATOR_ABORTED: 'The execution was cancelled.',
	// Tools and schemas.
	TOOL_BUILD_FAILED:
		"A connected tool's $fromAI(...) expression is malformed; the message names the node, the parameter and the position.",
	TOOL_ARGUMENTS_INVALID:
		'The model sent tool arguments that are not one JSON object. Try another model, or a lower "Temperature".',
	INVALID_JSON_SCHEMA:
		'The "Output Schema" is not a JSON Schema this node can use; the message lists each problem with its JSON pointer.',
	INVALID_ARGUMENT:
		'A function of this package was called with an argument it cannot use (the message names it): a bug in the calling code. Please report it with the debug log ("Debug Log" option).',
	ENGINE_TOOLS_UNTRACEABLE:
		'n8n did not say which node is behind a connected tool, so its engine cannot run it; the node runs such executions in-process. If you see this, set "Tool Execution" to "In-Process".',
	INVALID_JSON_EXAMPLE:
		'The "Output Schema" example is not valid JSON. Paste an example object, e.g. {"name": "Ada", "age": 36}.',
	SCHEMA_NOT_STRICT_COMPATIBLE:
		'The schema cannot be sent in OpenAI strict mode (the message lists the spots). Simplify it, or set "Output Strategy" to "Final Answer Tool".',
	NODE_TYPE_NOT_FOUND:
		"A connected node's type (or version) is not installed here, or cannot act as a tool.",
	NODE_UNSUPPORTED:
		'A connected node needs something only a running n8n instance offers (a trigger, a webhook, a task runner).',
	MEMORY_UNAVAILABLE:
		"The agent's memory sub-node could not be used (its package, or its service — Postgres, Redis … — could not be reached or refused to load or save): the message names the node and the reason.",
	SESSION_BUSY:
		'Another run on the same session has not finished: turns of one conversation run one at a time. Retry when the other has answered.',
	OUTPUT_PARSER_FAILED:
		"The answer did not pass the agent's output parser after the retries (the message names the agent, the parser and each rejected attempt). Describe the fields in the prompt, simplify the parser's schema, connect an Auto-fixing Output Parser, or choose a model that supports structured output.",
	OUTPUT_PARSER_UNAVAILABLE:
		'The output parser node could not be set up (its package, its schema, or the model an Auto-fixing parser needs): the message says which.',
	TOOLS_UNAVAILABLE:
		'Some connected tools cannot be served (the message names each, and the command that installs missing packages).',
	PACKAGE_MISSING:
		"A connected node's package is not installed here; the message gives the command that installs it.",
	SUPPLY_FAILED:
		"A connected tool sub-node could not supply its tool (its server unreachable, a credential missing); the message gives the node's own reason.",
	NODE_STRAY_ERROR:
		"A connected node's client library failed outside the node's run (e.g. a database or vector store server that is down); the message names the node. Check that its server is reachable.",
	CREDENTIAL_MISSING:
		'A connected node uses a credential that was not provided. Select or create the credential on that node.',
	PEER_DEPENDENCY_MISSING:
		"n8n's own libraries (zod, @langchain/core, n8n-workflow, n8n-core) were not found. Inside n8n they come with n8n; outside it, install n8n-toolbridge instead.",
	// Sub-workflows in the standalone host (Call n8n Workflow Tool, Execute Workflow node).
	SUB_WORKFLOW_NOT_FOUND:
		'A sub-workflow was not among the given workflows. Export it from n8n and pass its folder with --workflows DIR (library: the workflows option).',
	SUB_WORKFLOW_NO_TRIGGER:
		'The sub-workflow has no Execute Workflow Trigger (nor a Manual or Chat Trigger) to start from. Add one.',
	SUB_WORKFLOW_FAILED:
		'A node of the sub-workflow failed; the message names the sub-workflow and the node. Run the sub-workflow on its own to see why.',
	SUB_WORKFLOW_DEPTH:
		'Workflows call workflows deeper than the limit (10): a workflow probably calls itself. Give the recursion a condition that ends it.',
	SUB_WORKFLOW_WAITING:
		'The sub-workflow stopped to wait (a Wait node, a form, a human review); outside n8n nothing can resume it. Remove the wait, or run the workflow in n8n.',
	UNRESOLVED_NODE_REFERENCE:
		"An expression of the agent reads the output of a node that did not run (a trigger, a node before the agent) and has none pinned. Give it with --pin 'NODE=JSON' (the message names the node and the parameter), or pin the node's data in n8n before exporting.",
	WORKFLOW_FILE_INVALID:
		'The workflow file is not an n8n workflow export. Export it again from n8n ("Download").',
	// Files sent with the prompt ("Binary Input").
	BINARY_TOO_LARGE:
		'A file of the item is larger than "Max Binary Size (MB)". Raise the limit (the provider has its own), shrink the file, or name only the properties to send in "Binary Property Names".',
	BINARY_UNSUPPORTED_TYPE:
		'A binary property named in "Binary Property Names" holds a file the model cannot take. Send images (PNG, JPEG, GIF, WebP), and PDFs with "Binary Input" set to "Images and Documents".',
	BINARY_PROPERTY_MISSING:
		'A binary property named in "Binary Property Names" is not on the item. Check the name (the binary tab of the previous node shows it), or leave the option empty to send every file.',
	// The chat client.
	CHAT_AUTHENTICATION: 'The server rejected the API key. Check the key in the credential.',
	CHAT_INSUFFICIENT_CREDITS: 'The account has no credits left. Add credits at the provider.',
	CHAT_PERMISSION_DENIED:
		"The key may not use this model or feature (e.g. a moderation flag or a region). Check the key's permissions, or choose another model.",
	CHAT_BAD_REQUEST:
		'The server rejected the request. Check the model name and the options (some models do not support tools, temperature or reasoning).',
	CHAT_CONNECTION: 'The server could not be reached. Check the base URL in the credential.',
	CHAT_TIMEOUT: 'The model took too long. Raise "Timeout (Seconds)" or choose a faster model.',
	CHAT_STREAM_STALLED:
		'The model\'s stream stalled (no first token, or no data mid-stream); it was retried when nothing had run yet. Raise "First Token Timeout (Seconds)" or "Stall Timeout (Seconds)" (slow reasoning models), add "Fallback Models", or try again later.',
	CHAT_STREAM_INCOMPLETE:
		'The model\'s stream ended early, so the answer may be cut off. Try again, raise "Max Tokens", or add "Fallback Models".',
	CHAT_MID_STREAM:
		'The provider failed while answering. Try again later, add "Fallback Models", or choose another provider ("Provider Order").',
	CHAT_INVALID_CHUNK:
		'The server sent data that is not OpenAI-compatible. Check the base URL (it usually ends in /v1).',
	CHAT_PROVIDER_TIMEOUT:
		'The provider timed out on its side. Try again later, add "Fallback Models", or choose a faster model.',
	CHAT_RATE_LIMITED:
		'The provider is busy or unavailable; retries were made. Try again later or choose another model.',
	CHAT_PROVIDER_UNAVAILABLE:
		'The provider is busy or unavailable; retries were made. Try again later or choose another model.',
	CHAT_SERVER_ERROR:
		'The server failed (5xx) after retries. Try again later, or add "Fallback Models".',
	CHAT_API_ERROR:
		"The chat API answered with an error (its status and message are above). Check the model name, the options and the provider's status.",
	CHAT_ABORTED: 'The execution was cancelled while the model answered.',
};

/**
 * A hint for the n8n error panel (`NodeOperationError` description), by error code: what to
 * change so the run succeeds. Every code this package throws has one; codes of `$fromAI`
 * parsing (`FROM_AI_…`) share one, other `CHAT_…` codes a generic one. Undefined for errors
 * that are not this package's.
 */
export function describeAgentError(error: unknown): string | undefined {
	if (!ToolbridgeError.isInstance(error)) return undefined;
	if (error.code === 'AGENT_ABORTED' || error.code === 'VALIDATOR_ABORTED') {
		// The whole-run limit aborts the run too; its message says so (see RunTimeLimitReason).
		return /exceeded its time limit/.test(error.message)
			? 'The whole run took longer than "Run Timeout (Seconds)". Raise it, lower "Max Iterations", or choose a faster model.'
			: 'The execution was cancelled.';
	}
	const hint = Object.hasOwn(hints, error.code) ? hints[error.code] : undefined;
	if (hint !== undefined) return hint;
	if (error.code.startsWith('FROM_AI_'))
		return "A connected tool's $fromAI(...) expression is malformed; the message says where and what is allowed.";
	return error.code.startsWith('CHAT_')
		? 'The model call failed. Check the credential, the base URL and the model name.'
		: undefined;
}
