/**
 * One agent of a template, run end to end as `toolbridge run` runs it (the library's
 * `runWorkflowAgent`, no `--model` / `--base-url`): its own chat-model node, with a dummy
 * credential pointing at the loopback model (or nock on the provider's host), the corpus prompt
 * as the user's text. The model asks once for the agent's offline tool (see corpus-call.ts),
 * then answers. What is checked: the run ends with an answer, the prompt reached the model, the
 * tool ran exactly once, the answer passed the agent's output parser.
 */
import {
	inProcessConversationStore,
	runWorkflowAgent,
	ToolbridgeError,
	UnresolvedNodeReferenceError,
	type AgentTool,
	type StandaloneHost,
	type WorkflowExport,
} from '../../src/index';
import { chooseCall } from './corpus-call';
import { interceptHost } from './corpus-fakes';
import type { CorpusModel } from './corpus-model';

/** The user's text of every run: it must reach the model. */
export const CORPUS_PROMPT = 'What is 2+2*3? Answer in one line (corpus run).';

const LC = '@n8n/n8n-nodes-langchain.';

/** What one agent's run gave. */
export interface AgentRunResult {
	agent: string;
	/** The agent node's type and its chat model's (short names). */
	type: string;
	model: string;
	/** The run ended with an answer. */
	runs: boolean;
	/** The corpus prompt was in a user message of the first model request. */
	userMessage: boolean;
	/** The offline tool the model asked for: how often it ran, and whether its arguments fit its schema. */
	tool?: { name: string; kind: string; calls: number; argumentsFit: boolean; ok: boolean };
	/** The agent's output parser (absent: none): whether the answer passed it. */
	parser?: { type: string; validated: boolean };
	/** Nodes whose output was pinned (an empty item) because a parameter of the agent reads them. */
	pinned?: string[];
	/** Why it did not run: the error's code and first line. */
	failure?: string;
}

/**
 * Runs one agent of `workflow` against `model` and checks what reached it.
 *
 * @throws what the run throws when it is not a ToolbridgeError nor an error of n8n's code (a
 * crash of the host is a defect, not a corpus figure).
 */
export async function runCorpusAgent(
	workflow: WorkflowExport,
	agentName: string,
	host: StandaloneHost,
	model: CorpusModel,
	tools: AgentTool[],
): Promise<AgentRunResult> {
	const node = workflow.nodes.find((each) => each.name === agentName);
	const modelNode = subNode(workflow, agentName, 'ai_languageModel');
	const parserNode = subNode(workflow, agentName, 'ai_outputParser');
	const result: AgentRunResult = {
		agent: agentName,
		type: short(node?.type ?? '?'),
		model: modelNode ? short(modelNode.type) : 'none',
		runs: false,
		userMessage: false,
	};
	if (parserNode) result.parser = { type: short(parserNode.type), validated: false };
	const call = chooseCall(workflow, tools);
	if (call) for (const origin of call.intercept) interceptHost(origin);
	const pins: Record<string, unknown> = {};
	for (;;) {
		model.begin({ tool: call?.tool.name, args: call?.args, answer: 'The answer is 8.' });
		try {
			const run = await runWorkflowAgent(workflow, {
				host,
				agent: agentName,
				prompt: CORPUS_PROMPT,
				pins,
				// Each run its own conversations: exports without an id or name would share a Simple
				// Memory key (e.g. "chat_history") across templates in one store.
				conversationStore: inProcessConversationStore(),
				env: {},
				skipUnavailable: true,
				signal: AbortSignal.timeout(30_000),
			});
			result.runs = run.mode === 'full' ? run.result.output !== '' : run.validator !== undefined;
			if (call && model.asked) {
				const steps = run.mode === 'full' ? run.result.steps : [];
				const mine = steps.filter((step) => step.tool === call.tool.name);
				result.tool = {
					name: call.tool.name,
					kind: call.kind,
					calls: mine.length,
					argumentsFit: model.argumentProblems.length === 0,
					ok: mine.length > 0 && mine.every((step) => !step.isError),
				};
			}
			if (result.parser && run.mode === 'full')
				result.parser.validated = run.result.object !== undefined;
		} catch (error) {
			// A parameter reading a node that did not run: pin that node's output (an empty item), as
			// the error says (`--pin`), and run again.
			if (
				error instanceof UnresolvedNodeReferenceError &&
				error.nodeExists &&
				!(error.nodeName in pins)
			) {
				pins[error.nodeName] = {};
				continue;
			}
			result.failure = describeFailure(error);
		}
		break;
	}
	if (Object.keys(pins).length > 0) result.pinned = Object.keys(pins);
	result.userMessage = model.userMessageHas(CORPUS_PROMPT);
	return result;
}

/**
 * The export with a credential reference on every chat-model node that names none (the export
 * dropped it; a user assigns one in n8n): its node type's first credential type, by that name.
 */
export function assignModelCredentials(
	workflow: WorkflowExport,
	host: StandaloneHost,
): WorkflowExport {
	const models = new Set(
		Object.entries(workflow.connections)
			.filter(([, byType]) => (byType.ai_languageModel ?? []).some((outputs) => outputs?.length))
			.map(([source]) => source),
	);
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (!models.has(node.name) || Object.keys(node.credentials ?? {}).length > 0) return node;
			let type: string | undefined;
			try {
				type = host.describe(node).credentials?.[0]?.name;
			} catch {
				return node;
			}
			return type ? { ...node, credentials: { [type]: { id: null, name: type } } } : node;
		}),
	};
}

function describeFailure(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const code = ToolbridgeError.isInstance(error) ? error.code : (error as Error).name || 'Error';
	return `${code}: ${message.split('\n')[0]}`;
}

/** The first enabled node connected to the agent's input of `kind`. */
function subNode(
	workflow: WorkflowExport,
	agentName: string,
	kind: string,
): WorkflowExport['nodes'][number] | undefined {
	for (const [source, byType] of Object.entries(workflow.connections)) {
		const targets = (byType[kind] ?? []).flatMap((outputs) => outputs ?? []);
		if (!targets.some((connection) => connection.node === agentName)) continue;
		const found = workflow.nodes.find((each) => each.name === source);
		if (found && found.disabled !== true) return found;
	}
	return undefined;
}

function short(type: string): string {
	return type.startsWith(LC) ? type.slice(LC.length) : type.replace(/^n8n-nodes-base\./, '');
}
