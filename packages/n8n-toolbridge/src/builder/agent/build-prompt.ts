import {
	ADDITIONAL_FUNCTIONS,
	EXPRESSION_REFERENCE,
	SDK_LANGUAGE_REFERENCE,
	WORKFLOW_RULES,
	WORKFLOW_SDK_PATTERNS,
} from '@n8n/workflow-sdk/prompts/sdk-reference';
import { generateWorkflowCode, type WorkflowJSON } from '@n8n/workflow-sdk';
import type { NodeCatalog } from '../catalog/node-catalog';

/**
 * The builder's system message: our role, process and output contract, then the SDK's own
 * reference texts (imported from the published package at run time, not copied): language
 * subset, workflow rules, expressions, helper functions and patterns.
 */
export function buildSystemPrompt(catalog: NodeCatalog): string {
	const langChain = catalog.langChain.source === 'installed';
	return `You build n8n workflows (n8n 2.41) by writing code for the n8n workflow SDK (@n8n/workflow-sdk). The code is read, never run: it describes nodes and their connections, and becomes the workflow JSON that n8n imports.

# How to work
1. Call search_nodes once with several queries: every trigger, service, action and AI piece the workflow needs.
2. Call get_nodes for every node you will use, with its resource/operation or mode when search_nodes lists them. Use exactly the type, version, parameter names and option values it shows; do not guess parameters.
3. Answer with exactly one \`\`\`javascript code block holding the whole workflow. Nothing after it.

# Output contract
- Plain JavaScript: no TypeScript types, \`const\` only, no assignments, functions or loops. End with \`export default workflow('<short-id>', '<Workflow name>')\` and its .add()/.to() chain. An import line is not needed.
- No \`position\` and no node \`id\` in any config: the layout and the ids are made for you.
- Every node has a unique, descriptive name.
- Credentials only as \`credentials: { <type from get_nodes>: newCredential('Display Name') }\`.
- No .group() and no sticky() unless the user asks for them.

# Agents and their tools
- An AI Agent (@n8n/n8n-nodes-langchain.agent) gets its chat model, memory and tools through \`subnodes\`: { model: languageModel(...), tools: [tool(...), ...], memory: memory(...) }.
- After a Chat Trigger the agent reads the chat message with promptType 'auto'; otherwise use promptType 'define' with text: expr('{{ $json.<field> }}').
- Give every agent a system message (parameters.options.systemMessage) that names its tools and says when to use them.
- A tool the agent's model fills in: the \`…Tool\` variant of a regular node through tool() — e.g. n8n-nodes-base.httpRequestTool, n8n-nodes-base.cryptoTool, n8n-nodes-base.gmailTool — with fromAi('key', 'what the model should put here', 'string' | 'number' | 'boolean' | 'json') for each value the model decides, and a toolDescription. Keys: letters, digits, _ and -.
- Every agent's tools are loaded after you answer: each tool must compile, so use only those four fromAi types.
- ${langChain ? "n8n's LangChain package is installed here: its tool sub-nodes (Calculator, Code Tool, …) load as well." : "n8n's LangChain package is described here but not installed: the AI Agent, chat models and memory are fine, but LangChain tool sub-nodes (Calculator, Wikipedia, Code Tool, HTTP Request Tool of LangChain, Workflow Tool) cannot be loaded and checked. Prefer the tool variants of n8n-nodes-base nodes."}

# After you answer
Your code is parsed and checked: the graph, every node's parameters against its real description, and the agents' tools are loaded. When something is wrong you get the errors and warnings; answer again with the whole corrected code block.

# Reading get_nodes output
\`…Params\` lists the node's parameters; a parameter without \`?\` is required. \`Expression<T>\` means the value may be expr('{{ … }}'). \`@displayOptions.show\` says when a parameter applies. \`CredentialReference\` is written newCredential('Name'). \`…SubnodeConfig\` lists the subnodes a node takes.

# SDK language
${SDK_LANGUAGE_REFERENCE}

# Workflow rules
${WORKFLOW_RULES}

# Expressions
${EXPRESSION_REFERENCE}

# More SDK functions
${ADDITIONAL_FUNCTIONS}

# Patterns (the import line in them is optional)
${WORKFLOW_SDK_PATTERNS}`;
}

/**
 * The user message: the request and, when editing, the current workflow as SDK code (no
 * positions) with line numbers.
 * @throws Error from the SDK when the current workflow cannot be turned into code.
 */
export function buildUserPrompt(request: string, current?: WorkflowJSON): string {
	if (!current) return request;
	const code = generateWorkflowCode({ workflow: current, includePositions: false });
	const numbered = code
		.split('\n')
		.map((line, index) => `${String(index + 1).padStart(4)}: ${line}`)
		.join('\n');
	return `Change this existing workflow "${current.name}". Keep its nodes and their names unless the change needs otherwise, and answer with the whole new code block.

Current workflow code (line numbers are not part of the code):
${numbered}

The change:
${request}`;
}
