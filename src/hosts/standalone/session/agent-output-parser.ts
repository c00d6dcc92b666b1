import type { IDataObject, INode } from 'n8n-workflow';
import type { AgentConfig, AgentResult, AgentState } from '../../../agent/agent-state';
import { AgentStoppedError } from '../../../agent/agent-stopped-error';
import type { AgentRunOutcome } from '../../../agent/run-agent';
import { finishAgent } from '../../../agent/stop-agent';
import type { OutputAttempt } from '../../../agent/output-format/structured-output-config';
import { OutputParserError } from '../../../errors/output-parser-error';
import type { NodeReferences } from '../node-references';
import { subNodeTree } from '../sub-nodes/sub-node-tree';
import { ToolSupply } from '../sub-nodes/tool-supply';
import {
	agentUsesOutputParser,
	findOutputParserNode,
	outputParserNodeTypes,
	readOutputParser,
	type WorkflowOutputParser,
} from '../workflow/read-output-parser';
import type { WorkflowSession } from './workflow-session';

/** The n8n agent node types that take an output parser (AI Agent, AI Agent Tool). */
const parserTakingAgentTypes = new Set([
	'@n8n/n8n-nodes-langchain.agent',
	'@n8n/n8n-nodes-langchain.agentTool',
]);

/**
 * An agent run's output parser, as n8n's Tools Agent uses it: the answer the parser's schema
 * describes is asked for (the provider's structured-output mode through the loop's structured
 * output, or the parser's format instructions), and the final answer goes through the parser's
 * own `parse`. The run's result then carries the parsed value: `object` (the Structured Output
 * Parser's `{ output: … }` wrapper taken off, so the output item is `{ output: { … } }` as in
 * n8n) and `output`, its JSON text.
 */
export interface AgentOutputParser {
	readonly parser: WorkflowOutputParser;
	/** The loop's config with the parser's answer format: structured output, or its format instructions in the system message. */
	configure<Config extends Partial<AgentConfig>>(config: Config): Config;
	/**
	 * Waits for the run and passes its answer through the parser. An answer that never matched
	 * the schema (the loop's `invalid-output` after its repair) is handed to the parser as well:
	 * an Autofixing parser sends it to its own model with its fixing prompt.
	 * @throws {OutputParserError} `OUTPUT_PARSER_FAILED` when the parser rejects the final answer.
	 * @throws what the run throws otherwise.
	 */
	complete(
		run: Promise<AgentRunOutcome>,
		lastState: () => AgentState | undefined,
	): Promise<AgentRunOutcome>;
	/** Closes what the parser's sub-nodes opened. */
	close(): Promise<void>;
}

/**
 * The output parser of an n8n AI Agent (or AI Agent Tool) node of the session's workflow, when
 * the node uses one ("Require Specific Output Format", see `agentUsesOutputParser`) and an
 * enabled node is on its `ai_outputParser` input; supplied by the parser node's own code, with
 * its own sub-nodes (an Autofixing parser's model and inner parser), in an execution of the agent
 * whose input item is `item`.
 *
 * @throws {OutputParserError} `OUTPUT_PARSER_UNAVAILABLE` when the parser node's package is not
 * installed or the node cannot supply its parser.
 */
export async function openAgentOutputParser(
	session: WorkflowSession,
	agentNode: INode,
	run: { item: IDataObject; references: NodeReferences },
): Promise<AgentOutputParser | undefined> {
	if (!parserTakingAgentTypes.has(agentNode.type) || !agentUsesOutputParser(agentNode))
		return undefined;
	const node = findOutputParserNode(session.workflow, agentNode.name);
	if (!node) return undefined;
	const details = { agentName: agentNode.name, parserName: node.name };
	let nodeType;
	try {
		nodeType = session.host.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	} catch (error) {
		throw new OutputParserError(
			'OUTPUT_PARSER_UNAVAILABLE',
			details,
			`The output parser "${node.name}" of agent "${agentNode.name}" is a ${node.type}, which is not installed here (${(error as Error).message}). Install its package (n8n's LangChain nodes: @n8n/n8n-nodes-langchain), or set the agent's "Require Specific Output Format" off.`,
			{ cause: error },
		);
	}
	const supply = new ToolSupply(
		session.host,
		session.workflow,
		agentNode,
		subNodeTree(session.workflow, node.name),
		run.item,
		session.guard,
		run.references.keys,
	);
	try {
		const parser = await readOutputParser(supply, agentNode.name, node, nodeType);
		return outputParserOf(parser, agentNode, () => supply.close());
	} catch (error) {
		await supply.close();
		throw error;
	}
}

function outputParserOf(
	parser: WorkflowOutputParser,
	agentNode: INode,
	close: () => Promise<void>,
): AgentOutputParser {
	const label = Object.hasOwn(outputParserNodeTypes, parser.node.type)
		? outputParserNodeTypes[parser.node.type as keyof typeof outputParserNodeTypes]
		: parser.node.type;
	const fail = (answer: string, reason: string, cause?: unknown): OutputParserError =>
		new OutputParserError(
			'OUTPUT_PARSER_FAILED',
			{ agentName: agentNode.name, parserName: parser.node.name, answer },
			`The answer of agent "${agentNode.name}" did not pass its output parser "${parser.node.name}"${label === parser.node.name ? '' : ` (${label})`}: ${reason}`,
			{ cause },
		);
	const parse = async (text: string): Promise<unknown> => {
		try {
			return await parser.parse(text);
		} catch (error) {
			throw fail(text, parserErrorText(error), error);
		}
	};
	return {
		parser,
		configure(config) {
			if (parser.schema) return { ...config, structuredOutput: { schema: parser.schema } };
			const system = config.systemMessage ?? '';
			return {
				...config,
				systemMessage: `${system}${system === '' ? '' : '\n\n'}${parser.formatInstructions}`,
			};
		},
		async complete(run, lastState) {
			let outcome: AgentRunOutcome;
			try {
				outcome = await run;
			} catch (error) {
				const state = lastState();
				if (!(error instanceof AgentStoppedError) || error.reason !== 'invalid-output' || !state)
					throw error;
				const attempts = state.structured?.attempts ?? [];
				const answer = attempts.at(-1)?.answer ?? '';
				const value = await parse(answer).catch((parseError: unknown) => {
					throw fail(
						answer,
						`${describeAttempts(attempts)}; then the parser: ${parserErrorText((parseError as Error).cause ?? parseError)}`,
						parseError,
					);
				});
				return accepted(state, state.structured?.start ?? state.messages.length, value, attempts);
			}
			const text = parser.schema
				? JSON.stringify(outcome.result.object ?? null)
				: outcome.result.output;
			const value = await parse(text);
			const object = unwrapOutput(value);
			const result: AgentResult = { ...outcome.result, object, output: JSON.stringify(object) };
			return { state: outcome.state, result };
		},
		close,
	};
}

/** The run of a rejected answer the parser accepted (an Autofixing parser's fix): done, its history ending with the value. */
function accepted(
	state: AgentState,
	start: number,
	value: unknown,
	attempts: OutputAttempt[],
): AgentRunOutcome {
	const object = unwrapOutput(value);
	const json = JSON.stringify(object);
	const { failure: _failure, structured: _structured, ...rest } = state;
	const done = finishAgent(
		{
			...rest,
			messages: [...state.messages.slice(0, start), { role: 'assistant', content: json }],
		},
		json,
		'answer',
	);
	const result: AgentResult = { ...(done.result as AgentResult), object };
	if (attempts.length > 0) result.outputAttempts = attempts;
	return { state: { ...done, result }, result };
}

/** The Structured Output Parser's `{ output: value }` (from version 1.2) as `value`: the output item is `{ output: value }`. */
function unwrapOutput(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const keys = Object.keys(value);
	return keys.length === 1 && keys[0] === 'output' ? (value as { output: unknown }).output : value;
}

function describeAttempts(attempts: OutputAttempt[]): string {
	return attempts
		.map((attempt, index) => `attempt ${index + 1}: ${attempt.errors.join('; ')}`)
		.join(' | ');
}

/** What a parser's error says: n8n's NodeOperationError keeps the reason in `context.outputParserFailReason` and the zod issues in its cause. */
function parserErrorText(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const reason = (error as { context?: { outputParserFailReason?: unknown } }).context
		?.outputParserFailReason;
	return typeof reason === 'string' ? `${error.message} (${reason})` : error.message;
}
