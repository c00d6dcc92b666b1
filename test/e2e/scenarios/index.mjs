// @ts-check
/**
 * The e2e scenario table. Later issues add rows (validator, nested, memory/webhook,
 * streaming, HITL …); each row is one line in the report.
 *
 * Row fields:
 * - `id`: short, unique, [a-z0-9-] (also used in workflow and credential ids)
 * - `title`: what the line says
 * - `issue`: the issue the row proves
 * - `needs`: capabilities it cannot run without; a missing one makes the row SKIPPED
 *   with the reason (`fake`: test/support/fake-chat-server.ts)
 * - `pending`: set while the feature under test is not written yet: the row still
 *   runs; a failure is reported as PENDING (counted as skipped) with its message, a
 *   pass as passed with a hint to drop the flag. Remove it when the feature lands.
 * - `run(scope)`: throws on failure
 */
import { packageLoads } from './package-loads.mjs';
import { badFromAi, baselineN8nAgent, fullModeTools } from './tool-agents.mjs';
import { webhookMemoryStreaming } from './webhook-memory-streaming.mjs';
import { nestedUnderN8nAgent, nestedUnderOrchestrator, validatorMode } from './agent-modes.mjs';
import { humanReview } from './human-review.mjs';
import { binaryInputScenario, modelSubNodeWithTool } from './chat-model-sub-nodes.mjs';
import { callWorkflowTool } from './call-workflow-tool.mjs';
import { orchestratorLangChainTools } from './langchain-tools.mjs';
import { builtWorkflowRuns } from './builder.mjs';
import { toolImages } from './tool-images.mjs';

/**
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {number} issue
 * @property {Array<'fake'>} needs
 * @property {string} [pending]
 * @property {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>} run
 */

/** @type {Scenario[]} */
export const scenarios = [
	{
		id: 'package-loads',
		title: 'package installs like a community package; n8n start loads its node without errors',
		issue: 6,
		needs: [],
		run: packageLoads,
	},
	{
		id: 'baseline-agent',
		title: "baseline: n8n's AI Agent + OpenRouter model (fake) + Crypto/Date tools via $fromAI",
		issue: 6,
		needs: ['fake'],
		run: baselineN8nAgent,
	},
	{
		id: 'full-mode-tools',
		title:
			'full mode (engine driver): AgentOrchestrator + Crypto/Date tools via $fromAI, each call a node run, typed schemas, manual description',
		issue: 6,
		needs: ['fake'],
		run: fullModeTools('engine'),
	},
	{
		id: 'full-mode-in-process',
		title: 'full mode, Tool Execution = in-process: same tools, schemas, answer',
		issue: 8,
		needs: ['fake'],
		run: fullModeTools('inProcess'),
	},
	{
		id: 'bad-from-ai',
		title:
			'a malformed $fromAI in a connected tool fails with an error naming node, parameter and position',
		issue: 6,
		needs: ['fake'],
		run: badFromAi,
	},
	{
		id: 'validator-mode',
		title:
			'validator mode: a schema error goes back to the model, the second call passes, Crypto runs once',
		issue: 5,
		needs: ['fake'],
		run: validatorMode,
	},
	{
		id: 'nested-orchestrator',
		title:
			'nested mode under our orchestrator (in-process and engine): plain-text answer, child run logged, usage rolled up',
		issue: 5,
		needs: ['fake'],
		run: nestedUnderOrchestrator,
	},
	{
		id: 'nested-n8n-agent',
		title:
			"nested mode under n8n's AI Agent v3.1: typed task schema, engine-run child, answer back to the parent",
		issue: 8,
		needs: ['fake'],
		run: nestedUnderN8nAgent,
	},
	{
		id: 'baseline-human-review',
		title:
			"baseline, n8n start: n8n's AI Agent v3.1 behind the Email send-and-wait review gate (SMTP sink) before Crypto: approve, then decline",
		issue: 8,
		needs: ['fake'],
		run: humanReview({ agent: 'n8n', decisions: ['approve', 'decline'] }),
	},
	{
		id: 'human-review',
		title:
			'n8n start: Email send-and-wait review gate (SMTP sink) before Crypto under the orchestrator (engine): approve → Crypto runs, the model reads the hash',
		issue: 8,
		needs: ['fake'],
		run: humanReview({ agent: 'orchestrator', decisions: ['approve'] }),
	},
	{
		id: 'human-review-decline',
		title:
			'n8n start: the same review gate under the orchestrator (engine): decline → the model reads the decline, Crypto never runs',
		issue: 8,
		needs: ['fake'],
		run: humanReview({ agent: 'orchestrator', decisions: ['decline'] }),
	},
	{
		id: 'webhook-memory-streaming',
		title:
			'n8n start + published webhooks: Simple Memory keeps real tool calls across two turns; streaming webhook sends text before the end',
		issue: 6,
		needs: ['fake'],
		run: webhookMemoryStreaming,
	},
	{
		id: 'baseline-openai-model',
		title:
			"baseline: n8n's AI Agent + n8n's OpenAI Chat Model (Chat Completions, fake) + Crypto via $fromAI: answer, one run per model call",
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'n8n', model: 'openai' }),
	},
	{
		id: 'baseline-anthropic-model',
		title:
			"baseline: n8n's AI Agent + n8n's Anthropic Chat Model (fake Messages API, JSON) + Crypto via $fromAI",
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'n8n', model: 'anthropic' }),
	},
	{
		id: 'baseline-anthropic-model-sse',
		title:
			"baseline: the same with the Anthropic Chat Model's streaming on (Messages API SSE events; n8n shows estimated tokens for streamed Anthropic calls)",
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'n8n', model: 'anthropicStreaming', usage: 'estimate' }),
	},
	{
		id: 'orchestrator-openai-model',
		title:
			"AgentOrchestrator + n8n's OpenAI Chat Model sub-node (no credential of its own) + Crypto via $fromAI: answer, tool once, one model-node run per call with tokens",
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'orchestrator', model: 'openai' }),
	},
	{
		id: 'orchestrator-anthropic-model',
		title:
			"AgentOrchestrator + n8n's Anthropic Chat Model sub-node (fake Messages API, streamed) + Crypto via $fromAI (n8n shows estimated tokens for streamed Anthropic calls)",
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'orchestrator', model: 'anthropic', usage: 'estimate' }),
	},
	{
		id: 'orchestrator-toolbridge-model',
		title:
			'AgentOrchestrator + Toolbridge Chat Model sub-node (native path) + Crypto via $fromAI: same answer as the built-in client',
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'orchestrator', model: 'toolbridge' }),
	},
	{
		id: 'n8n-agent-toolbridge-model',
		title:
			"n8n's AI Agent v3.1 + Toolbridge Chat Model sub-node + Crypto via $fromAI: answer, one sub-node run per model call",
		issue: 18,
		needs: ['fake'],
		run: modelSubNodeWithTool({ agent: 'n8n', model: 'toolbridge' }),
	},
	{
		id: 'binary-image-builtin',
		title:
			'AgentOrchestrator (built-in client) with binaryInput = images: a PNG binary property reaches the model as an image_url data URL, same bytes',
		issue: 18,
		needs: ['fake'],
		run: binaryInputScenario({ via: 'builtin' }),
	},
	{
		id: 'binary-image-openai-model',
		title:
			"AgentOrchestrator + n8n's OpenAI Chat Model with binaryInput = images: the PNG reaches the model as an image_url data URL",
		issue: 18,
		needs: ['fake'],
		run: binaryInputScenario({ via: 'openai' }),
	},
	{
		id: 'binary-pdf-builtin',
		title:
			'AgentOrchestrator (built-in client) with binaryInput = imagesAndDocuments: a PDF binary property reaches the model as a file part (filename, data URL), same bytes',
		issue: 18,
		needs: ['fake'],
		run: binaryInputScenario({ via: 'builtin', file: 'pdf' }),
	},
	{
		id: 'langchain-tools-engine',
		title:
			"AgentOrchestrator (engine) + n8n's Calculator and a JavaScript Code Tool (LangChain tool sub-nodes): n8n's schemas, each call a node run, the model reads 42 and the Code Tool's result",
		issue: 24,
		needs: ['fake'],
		run: orchestratorLangChainTools('engine'),
	},
	{
		id: 'langchain-tools-in-process',
		title:
			"AgentOrchestrator (in-process) + n8n's Calculator and a JavaScript Code Tool: the tools n8n's supplyData gives, called in-process",
		issue: 24,
		needs: ['fake'],
		run: orchestratorLangChainTools('inProcess'),
	},
	{
		id: 'tool-images-engine',
		title:
			"AgentOrchestrator (engine) + n8n's HTTP Request tool fetching a PNG: the node run's image reaches a vision model as an image_url part after the tool turn",
		issue: 31,
		needs: ['fake'],
		run: toolImages('engine'),
	},
	{
		id: 'call-workflow-tool-engine',
		title:
			"AgentOrchestrator (engine path) + n8n's Call n8n Workflow Tool 2.2: $fromAI inputs reach a published sub-workflow, its answer is the tool node's run",
		issue: 24,
		needs: ['fake'],
		run: callWorkflowTool('engine'),
	},
	{
		id: 'call-workflow-tool-in-process',
		title:
			"AgentOrchestrator (in-process) + n8n's Call n8n Workflow Tool 2.2: n8n's supplied tool runs the sub-workflow, same schema and answer",
		issue: 24,
		needs: ['fake'],
		run: callWorkflowTool('inProcess'),
	},
	{
		id: 'builder',
		title:
			'toolbridge build from a recorded run (a wrong answer corrected): n8n imports and executes the built agent workflow; its tools load in toolbridge tools',
		issue: 26,
		needs: ['fake'],
		run: builtWorkflowRuns,
	},
];
