import {
	AgentStoppedError,
	StandaloneHost,
	addUsage,
	emptyUsage,
	createChatModelCaller,
	readWorkflowInput,
	runAgent,
	type AgentRunOutcome,
	type CallModel,
	type ChatMessage,
	type StandaloneHostOptions,
	type Usage,
} from 'n8n-nodes-toolbridge';
import type { WorkflowJSON } from '@n8n/workflow-sdk';
import { NodeCatalog, type CatalogPackage } from '../catalog/node-catalog';
import { extractCode } from '../code/prepare-code';
import { discoveryTools } from '../discovery/discovery-tools';
import type { BuiltWorkflow, CredentialNeeded } from '../finish-workflow';
import { issueKey, type BuildIssue } from '../validate/build-issue';
import type { AgentToolsLoad } from '../validate/check-agent-tools';
import { checkWorkflowCode, type WorkflowCheck } from '../validate/check-workflow';
import { builderConnection, type BuilderModelOptions } from './builder-connection';
import { buildSystemPrompt, buildUserPrompt } from './build-prompt';
import { correctionMessage } from './correction-message';

/** Default budget of model calls over all rounds of a build. */
export const DEFAULT_BUILD_ITERATIONS = 25;
/** A build stops after this many answers in a row whose code could not be read. */
export const MAX_PARSE_FAILURES = 3;
/** A build stops after this many rounds in a row whose errors did not get fewer. */
const MAX_STALLED_ROUNDS = 3;

/** What a build reports while it runs (stderr progress in the CLI, MCP progress notes). */
export type BuildEvent =
	| { type: 'catalog'; packages: CatalogPackage[] }
	| { type: 'notice'; message: string }
	| { type: 'model-call'; round: number; call: number }
	| { type: 'search'; queries: string[] }
	| { type: 'lookup'; nodeIds: string[] }
	| { type: 'check'; round: number; check: WorkflowCheck; sentBack: boolean };

/** Options of {@link buildWorkflow}. */
export interface BuildWorkflowOptions
	extends BuilderModelOptions, Pick<StandaloneHostOptions, 'packageDirs' | 'nodeTypes'> {
	/** What the workflow should do (or, with `from`, the change to make). */
	request: string;
	/** The workflow to edit: a file path, JSON text or the parsed export. */
	from?: string | object;
	/** Model calls over all rounds (default 25). */
	maxIterations?: number;
	temperature?: number;
	onEvent?: (event: BuildEvent) => void;
	signal?: AbortSignal;
	/** A host (and catalog) to reuse, e.g. by the MCP server. */
	host?: StandaloneHost;
	catalog?: NodeCatalog;
	/** Calls the model; default the chat client on the resolved connection. Tests and evals inject theirs. */
	callModel?: CallModel;
	/** Where LangChain's descriptions are cached (see `findLangChainPackage`). */
	cacheDir?: string;
	/** Makes the ids of the output (for repeatable output in evals). */
	randomId?: (kind: 'workflow' | 'uuid') => string;
}

/** Why a build ended. */
export type BuildStopReason =
	'valid' | 'parse-failures' | 'budget' | 'no-progress' | 'model-stopped';

/** A finished build. */
export interface BuildResult {
	/** True when the last answer passed every check (warnings may remain). */
	valid: boolean;
	stopReason: BuildStopReason;
	/** The workflow n8n imports, from the last answer that could be read. */
	workflow?: BuiltWorkflow;
	/** The last answer's code. */
	code?: string;
	issues: BuildIssue[];
	credentialsNeeded: CredentialNeeded[];
	agents: AgentToolsLoad[];
	model: string;
	/** Checked answers (1 when the first answer was valid). */
	rounds: number;
	modelCalls: number;
	toolCalls: number;
	usage: Usage;
	durationMs: number;
}

/**
 * Builds an n8n workflow from a sentence with a one-shot code agent on this project's own loop
 * and chat client: the model searches the installed node descriptions (`search_nodes`), reads
 * their generated types (`get_nodes`) and answers with workflow SDK code. The answer is read
 * without running it and checked (graph, nodes against their descriptions, every agent's tools
 * loaded in the standalone host); errors and new warnings go back to the model as a user turn
 * until the code is valid, the budget of model calls is used, {@link MAX_PARSE_FAILURES}
 * answers in a row cannot be read, or the errors stop getting fewer.
 *
 * @throws {AgentConfigurationError} for a missing key, model or malformed base URL.
 * @throws {NodeDescriptionsError} when LangChain's descriptions cannot be found or fetched.
 * @throws {WorkflowFileError} when `from` is not a workflow export.
 * @throws the chat client's errors (ApiCallError, ChatTimeoutError …) when a model call fails.
 */
export async function buildWorkflow(options: BuildWorkflowOptions): Promise<BuildResult> {
	const started = Date.now();
	const emit = (event: BuildEvent) => options.onEvent?.(event);
	const { model, connection } = builderConnection(options);
	const callModel = options.callModel ?? createChatModelCaller(connection);
	const current = options.from === undefined ? undefined : readWorkflowInput(options.from);
	const host =
		options.host ??
		(await StandaloneHost.create({
			packageDirs: options.packageDirs,
			nodeTypes: options.nodeTypes,
			env: options.env,
		}));
	const catalog =
		options.catalog ??
		(await NodeCatalog.load({
			host,
			langChain: {
				packageDirs: options.packageDirs,
				cacheDir: options.cacheDir,
				env: options.env,
				onNotice: (message) => emit({ type: 'notice', message }),
			},
		}));
	emit({ type: 'catalog', packages: catalog.packages });

	const tools = discoveryTools(catalog, {
		onSearch: (queries) => emit({ type: 'search', queries }),
		onLookup: (nodeIds) => emit({ type: 'lookup', nodeIds }),
	});
	const systemMessage = buildSystemPrompt(catalog);
	const budget = options.maxIterations ?? DEFAULT_BUILD_ITERATIONS;
	const told = new Set<string>();
	let prompt = buildUserPrompt(options.request, current as WorkflowJSON | undefined);
	let history: ChatMessage[] | undefined;
	let usage: Usage = emptyUsage();
	let modelCalls = 0;
	let toolCalls = 0;
	let parseFailures = 0;
	let stalled = 0;
	let fewestErrors = Infinity;
	let last: { check: WorkflowCheck; code: string } | undefined;
	let readable: { check: WorkflowCheck; code: string } | undefined;

	/** The build's result from the code it ends with (none when no answer could be read). */
	const result = (
		final: { check: WorkflowCheck; code: string } | undefined,
		stopReason: BuildStopReason,
		rounds: number,
		issuesBefore: BuildIssue[] = [],
	): BuildResult => ({
		valid: stopReason === 'valid',
		stopReason,
		workflow: final?.check.workflow,
		code: final?.code,
		issues: [...issuesBefore, ...(final?.check.issues ?? [])],
		credentialsNeeded: final?.check.credentialsNeeded ?? [],
		agents: final?.check.agents ?? [],
		model,
		rounds,
		modelCalls,
		toolCalls,
		usage,
		durationMs: Date.now() - started,
	});

	for (let round = 1; ; round++) {
		const remaining = budget - modelCalls;
		let outcome: AgentRunOutcome;
		try {
			outcome = await runAgent({
				input: {
					config: {
						model,
						systemMessage,
						// A forced final answer counts as a call: keep one for it.
						maxIterations: Math.max(1, remaining - 1),
						limitBehavior: 'final-answer',
						toolChoice: remaining <= 1 ? 'none' : 'auto',
						temperature: options.temperature,
					},
					prompt,
					history,
				},
				tools,
				callModel,
				signal: options.signal,
				onEvent: (event) => {
					if (event.type === 'model-call-start')
						emit({ type: 'model-call', round, call: modelCalls + event.iteration });
				},
			});
		} catch (error) {
			if (!(error instanceof AgentStoppedError) || error.reason === 'aborted') throw error;
			// The loop gave no answer (an empty final answer, a repeated call): the build ends
			// with the last code that could be read.
			usage = addUsage(usage, error.usage);
			modelCalls += error.iterations;
			toolCalls += error.steps.length;
			const stopped: BuildIssue = {
				severity: 'error',
				source: 'parse',
				code: 'NO_ANSWER',
				message: `The model gave no workflow code: ${error.message}`,
			};
			return result(readable ?? last, 'model-stopped', round, [stopped]);
		}
		usage = addUsage(usage, outcome.result.usage);
		modelCalls += outcome.result.iterations;
		toolCalls += outcome.result.steps.length;
		const answer = outcome.result.output;
		const code = extractCode(answer);
		const check = await checkWorkflowCode(answer, {
			catalog,
			host,
			existing: current,
			randomId: options.randomId,
		});
		last = { check, code };
		if (check.workflow) readable = last;
		const message =
			check.valid && !hasNewWarnings(check, told)
				? undefined
				: correctionMessage(check.issues, code, told);
		emit({ type: 'check', round, check, sentBack: message !== undefined });

		const parseFailed = check.issues.some((issue) => issue.source === 'parse');
		parseFailures = parseFailed ? parseFailures + 1 : 0;
		const errors = check.issues.filter((issue) => issue.severity === 'error').length;
		if (!parseFailed) {
			stalled = errors < fewestErrors ? 0 : stalled + 1;
			fewestErrors = Math.min(fewestErrors, errors);
		}
		const stopReason: BuildStopReason | undefined =
			message === undefined
				? 'valid'
				: parseFailures >= MAX_PARSE_FAILURES
					? 'parse-failures'
					: modelCalls >= budget
						? 'budget'
						: stalled >= MAX_STALLED_ROUNDS
							? 'no-progress'
							: undefined;
		if (stopReason) {
			const final = stopReason === 'valid' ? last : (readable ?? last);
			return result(final, final.check.valid ? 'valid' : stopReason, round);
		}
		history = outcome.state.messages.filter((entry) => entry.role !== 'system');
		prompt = message as string;
	}
}

function hasNewWarnings(check: WorkflowCheck, told: Set<string>): boolean {
	return check.issues.some((issue) => issue.severity === 'warning' && !told.has(issueKey(issue)));
}
