import type { ServerResponse } from 'node:http';
import {
	runSessionAgent,
	type AgentEventListener,
	type ChatMessage,
	type Usage,
	type WorkflowAgentRun,
	type WorkflowSession,
} from 'n8n-nodes-toolbridge';

/** What both endpoints hand the agent. */
export interface AgentRequest {
	/** The agent (the request's model). */
	agent: string;
	/** The last user message: the user message the agent's model receives (see `SessionAgentInput.prompt`). */
	prompt: string;
	history: ChatMessage[];
	/** `agent_input`: the item the agent node receives. */
	input?: Record<string, unknown>;
	/** `agent_pins`: other nodes' output, over the server's `--pin`. */
	pins?: Record<string, unknown>;
	/** `x-session-id`: the session the agent's memory sub-node continues. */
	sessionId?: string;
}

/** A finished run's answer as both endpoints send it. */
export interface AgentAnswer {
	/** The answer's text (a validator run's result as JSON). */
	content: string;
	usage: Usage;
	/** `stop`, or `length` when the model was cut off. */
	finishReason: 'stop' | 'length';
}

/** What a run of one request needs from its server. */
export interface AgentRequestContext {
	session: WorkflowSession;
	log: (line: string) => void;
}

/**
 * Runs the agent for one request of either endpoint, with the server's one disconnect rule: a
 * client that hangs up before the answer aborts its run (the loop starts no tool after that).
 * Logs one line (`label` → ok with tokens, failed, or aborted) with the time taken, and says
 * when the agent node's own prompt was sent rather than the user's message (`agent_input`,
 * `agent_pins`).
 *
 * @throws what `runSessionAgent` throws (redacted), after logging it.
 */
export async function runAgentRequest(
	context: AgentRequestContext,
	label: string,
	request: AgentRequest,
	response: ServerResponse,
	onEvent: AgentEventListener,
): Promise<AgentAnswer> {
	const controller = new AbortController();
	const onClose = () => {
		if (!response.writableFinished) controller.abort(new Error('The client disconnected.'));
	};
	response.once('close', onClose);
	const started = Date.now();
	try {
		const run = await runSessionAgent(
			{ ...context.session, signal: controller.signal, onEvent },
			{
				agent: request.agent,
				prompt: request.prompt,
				history: request.history,
				input: request.input,
				pins: request.pins,
				sessionId: request.sessionId,
			},
		);
		const answer = answerOf(run);
		const { reason } = run.userMessage;
		const sent =
			reason === 'input' || reason === 'pin'
				? `, sent the node's prompt (agent_${reason === 'input' ? 'input' : 'pins'})`
				: '';
		context.log(
			`${label} ${request.agent} → ok, ${answer.usage.totalTokens} tokens${sent} [${Date.now() - started} ms]`,
		);
		return answer;
	} catch (error) {
		context.log(
			`${label} ${request.agent} → ${controller.signal.aborted ? 'aborted (client gone)' : `failed: ${(error as Error).message}`} [${Date.now() - started} ms]`,
		);
		throw error;
	} finally {
		response.off('close', onClose);
	}
}

function answerOf(run: WorkflowAgentRun): AgentAnswer {
	if (run.mode === 'validator') {
		const { tool, arguments: toolArguments, result, attempts, usage } = run.validator;
		return {
			content: JSON.stringify({ tool, arguments: toolArguments, result, attempts }),
			usage,
			finishReason: 'stop',
		};
	}
	return {
		content: run.result.output,
		usage: run.result.usage,
		finishReason: run.result.finishReason === 'length' ? 'length' : 'stop',
	};
}
