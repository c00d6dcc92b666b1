import type { INode } from 'n8n-workflow';
import type { Usage } from '../../../chat/types';
import { buildAgentTools } from '../agent-tools/build-agent-tools';
import type { WorkflowNestedAgentRunner } from '../agent-tools/workflow-nested-agent-runner';
import type { AgentEvent } from '../../../agent/agent-event';
import type { AgentResult, AgentState } from '../../../agent/agent-state';
import type { AgentTool } from '../../../tools/agent-tool';
import { enterAgentFrame, type AgentFrame } from '../../../agent/modes/nested/agent-frame';
import { validatorConfigFor } from '../../../agent/modes/validator/validator-config-for';
import { runValidator } from '../../../agent/modes/validator/run-validator';
import type { ValidatorResult } from '../../../agent/modes/validator/validator-state';
import { agentOutputItem } from '../../../agent/output-format/agent-output-item';
import { redactingEventListener } from '../../../agent/redacting-event-listener';
import { runAgent } from '../../../agent/run-agent';
import { captureContentFrom, startAgentTrace } from '../../../tracing/agent-trace';
import type { WorkflowAgentSettings } from '../workflow/workflow-agent-settings';
import type { WorkflowSession } from './workflow-session';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { UserMessageChoice } from '../workflow/choose-user-message';
import { createChatModelSupplier } from '../workflow/supply-chat-model';
import { openAgentOutputParser } from './agent-output-parser';
import {
	openAgentMemory,
	type AgentMemoryInfo,
	type OpenedAgentMemory,
} from '../workflow/agent-memory';
import { applySessionModel, modelCallerOf } from './agent-model-call';
import {
	agentInputs,
	orchestratorNodeType,
	readAgentSettings,
	type WorkflowAgentNodeInput,
} from './agent-run-inputs';

export { orchestratorNodeType, type WorkflowAgentNodeInput };

/** A finished run of one agent node: full loop (also nested mode) or validator. */
export type WorkflowAgentNodeOutcome = {
	settings: WorkflowAgentSettings;
	/** Which text was sent as the user message and why (a nested agent's: its caller's task). */
	userMessage: UserMessageChoice;
	tools: AgentTool[];
	path: string[];
} & (
	| { mode: 'full'; result: AgentResult; state: AgentState; memory?: AgentMemoryInfo }
	| { mode: 'validator'; result: ValidatorResult }
);

/**
 * Runs one agent node of a workflow in the standalone host, in the chain of nested agents
 * (`enterAgentFrame`: depth limit, cycle check, abort, usage and debug lines roll up to the
 * caller): its settings read as the node reads them, its `ai_tool` nodes built as tools —
 * nested AgentOrchestrators among them as tools that run this same function — then the full
 * loop (`runAgent`; modes full and nested) or the validator (`runValidator`). The result's
 * usage includes the nested agents' usage. The run redacts the session's secrets and its
 * own key and headers from all it reports, and caps what the model reads from tools at the
 * session's `maxOutputLength`.
 *
 * @throws {AgentNestingError} when the depth limit is exceeded or the agent is already running further up the chain.
 * @throws {AgentConfigurationError} for bad settings (no API key, no model, empty prompt …).
 * @throws {ToolBuildError} / NodeTypeNotFoundError when the node's tools cannot be built.
 * @throws what `runAgent` / `runValidator` throw (AgentStoppedError, ValidatorError, ApiCallError …), redacted.
 */
export async function runWorkflowAgentNode(
	session: WorkflowSession,
	node: INode,
	input: WorkflowAgentNodeInput,
): Promise<WorkflowAgentNodeOutcome> {
	const { item, references, userMessage: chosen } = agentInputs(session, node, input);
	let userMessage = chosen;
	// Chat-model sub-nodes the built-in client does not read run through their own node code.
	const chatModels = createChatModelSupplier({
		host: session.host,
		workflow: session.workflow,
		agentNode: node,
		input: item,
		expressionKeys: references.keys,
	});
	const settings = await readAgentSettings(session, node, input, {
		item,
		references,
		prompt: input.prompt ?? (userMessage.source === 'user-text' ? input.chatInput : undefined),
		chatModels,
	}).catch(async (error: unknown) => {
		await chatModels.close();
		throw error;
	});
	const redactor = session.redactor.with(settings.secrets);
	// Only the outermost agent talks to the session; nested agents' lines reach it through the
	// frame chain. Its streamed text is redacted on the way out (a key split across deltas too).
	const outer = session.onEvent && redactingEventListener(session.onEvent, redactor);
	// With an output parser the answer is the parsed value, not the model's text: its text is not streamed.
	let streamText = true;
	const emit = (event: AgentEvent): void => {
		if (frame.path.length === 1 && (streamText || event.type !== 'text-delta'))
			outer?.onEvent(event);
	};
	const frame: AgentFrame = enterAgentFrame({
		name: node.name,
		key: `${session.workflow.id ?? ''}/${node.name}`,
		maxDepth: settings.maxDepth,
		signal: combineSignals(session.signal, input.signal),
		sink: (line) => emit({ type: 'debug', line }),
	});
	// The session's --model replaces the outermost Orchestrator's model (n8n's AI Agent reads it itself).
	if (frame.path.length === 1 && session.model && settings.kind === 'orchestrator')
		await applySessionModel(settings, node, session.model).catch(async (error: unknown) => {
			await chatModels.close();
			throw error;
		});
	// The caller's input or pins did not hold what the node's prompt reads (a pin given for the
	// memory's session key only): the user's text is the message after all.
	const userText = input.chatInput ?? '';
	if (
		settings.prompt.trim() === '' &&
		(userMessage.reason === 'pin' || userMessage.reason === 'input') &&
		userText.trim() !== ''
	) {
		settings.prompt = userText;
		userMessage = { source: 'user-text', reason: 'user-text', template: userMessage.template };
	}
	if (settings.prompt.trim() === '') {
		const reads = userMessage.template
			? `its prompt ${JSON.stringify(userMessage.template)} resolved to nothing`
			: "it reads the user's text ({{ $json.chatInput }}) and none was given";
		await chatModels.close();
		throw new AgentConfigurationError(
			'prompt',
			`The prompt is empty: agent "${node.name}": ${reads}. Give the user's text (--prompt TEXT), or the item the node receives (--input JSON) and other nodes' output (--pin NODE=JSON).`,
		);
	}
	// Spans (when an OpenTelemetry SDK is registered): this run, its model calls and tool calls.
	const trace = startAgentTrace({
		agentName: node.name,
		model: settings.config.model,
		baseUrl: settings.connection?.baseUrl,
		captureContent: captureContentFrom(session.connection.env),
		redactor,
		prompt: settings.prompt,
	});
	const toolSet = await buildAgentTools(session.workflow, node, session.host, {
		runNestedAgent: workflowNestedAgentRunner(session),
		guard: session.guard,
		review: session.review,
		skipUnavailable: session.skipUnavailable,
		input: item,
		nodeReferences: references,
	});
	if (toolSet.unavailable.length > 0)
		session.onToolsUnavailable?.({
			agentName: node.name,
			path: frame.path,
			tools: toolSet.unavailable,
		});
	const tools = toolSet.tools.map(trace.tool);
	// n8n's AI Agent with "Require Specific Output Format": its parser node, supplied by its own code.
	const outputParser = await openAgentOutputParser(session, node, { item, references }).catch(
		async (error: unknown) => {
			await Promise.all([toolSet.close(), chatModels.close()]);
			throw error;
		},
	);
	if (outputParser) {
		settings.config = outputParser.configure(settings.config);
		streamText = false;
	}
	// What the tool, model and parser sub-nodes opened (an MCP client, a database pool) closes with the run.
	const closeTools = async (): Promise<void> => {
		await Promise.all([toolSet.close(), chatModels.close(), outputParser?.close()]);
	};
	const callModel = trace.callModel(modelCallerOf(settings));
	const debug = session.debug ?? settings.debugLog;
	const onEvent = frame.forwardDebug(emit);
	const finish = (usage?: Usage): Usage => {
		outer?.flush();
		const total = frame.finish(usage);
		session.onAgentEnd?.({ agentName: node.name, path: frame.path, usage: total });
		trace.end({ usage: total });
		return total;
	};
	// A run that fails still spent tokens (tracked through onState): they go to the parent agent as well.
	const finishOnFailure = (error: unknown): never => {
		trace.fail(error);
		finish();
		throw redactor.error(error);
	};

	// What both drivers (full and validator mode) run with.
	const driverOptions = {
		tools,
		callModel,
		signal: frame.signal,
		onEvent,
		debug,
		redactor,
		maxOutputLength: session.maxOutputLength,
		toolTimeoutMs: settings.toolTimeoutMs,
		runTimeoutMs: settings.runTimeoutMs,
	};
	if (settings.mode === 'validator') {
		const validator = settings.validator;
		const { result } = await frame
			.run(() =>
				trace.run(() =>
					runValidator({
						input: {
							// Every model setting of the full loop, from the one helper both hosts use.
							config: validatorConfigFor(settings.config, validator ?? {}, tools),
							prompt: settings.prompt,
						},
						...driverOptions,
						onState: frame.track,
					}),
				),
			)
			.finally(closeTools)
			.catch(finishOnFailure);
		return {
			mode: 'validator',
			settings,
			userMessage,
			tools,
			path: frame.path,
			result: { ...result, usage: finish(result.usage) },
		};
	}

	// The memory sub-node (the outermost agent): its history first, this turn saved after.
	const memory: OpenedAgentMemory | undefined =
		frame.path.length === 1
			? await openAgentMemory(node, {
					host: session.host,
					workflow: session.workflow,
					item,
					references,
					store: session.conversationStore,
					guard: session.guard,
					policy: settings.memoryErrorPolicy,
					runTimeoutMs: settings.runTimeoutMs,
				}).catch(async (error: unknown) => {
					await closeTools();
					return finishOnFailure(error);
				})
			: undefined;
	const history = memory ? [...memory.history, ...(input.history ?? [])] : input.history;
	let lastState: AgentState | undefined;
	const outcome = await frame
		.run(() =>
			trace.run(() => {
				const run = runAgent({
					input: { config: settings.config, prompt: settings.prompt, history },
					...driverOptions,
					concurrency: settings.concurrency,
					onState: (state) => {
						lastState = state;
						frame.track(state);
					},
				});
				return outputParser ? outputParser.complete(run, () => lastState) : run;
			}),
		)
		.then(async (done) => {
			await memory?.save(done.state.messages.slice(done.state.turnStart));
			return done;
		})
		.finally(async () => {
			await closeTools();
			await memory?.close();
		})
		.catch(finishOnFailure);
	for (const note of memory?.info.notes ?? []) emit({ type: 'debug', line: `[WARN] ${note}` });
	return {
		mode: 'full',
		settings,
		userMessage,
		tools,
		path: frame.path,
		result: { ...outcome.result, usage: finish(outcome.result.usage) },
		state: outcome.state,
		...(memory ? { memory: memory.info } : {}),
	};
}

/**
 * The runner behind a workflow's nested AgentOrchestrator tools: a call runs the nested
 * node's own loop (its tools, model and credential) and answers with its final answer as
 * plain text (a JSON answer as its JSON text), as the node does inside n8n.
 */
export function workflowNestedAgentRunner(session: WorkflowSession): WorkflowNestedAgentRunner {
	return async (node, prompt, { signal }) => {
		const outcome = await runWorkflowAgentNode(session, node, { prompt, signal });
		if (outcome.mode !== 'full') return JSON.stringify(outcome.result.result ?? null);
		const output = agentOutputItem(outcome.result, {
			format: outcome.settings.outputFormat,
		}).output;
		return typeof output === 'string' ? output : JSON.stringify(output);
	};
}

function combineSignals(...candidates: Array<AbortSignal | undefined>): AbortSignal | undefined {
	const signals = candidates.filter((signal): signal is AbortSignal => signal !== undefined);
	return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}
