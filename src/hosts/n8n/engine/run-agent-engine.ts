import type { EngineResponse, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { AgentState } from '../../../agent/agent-state';
import {
	agentToolFromLangChain,
	type LangChainToolLike,
} from '../../../tools/agent-tool-from-langchain';
import { applyToolResults } from '../../../agent/apply-tool-results';
import { NodeMemory } from '../memory/node-memory';
import { createAgentState } from '../../../agent/create-agent-state';
import { debugLines } from '../../../agent/debug-log';
import { nextAction } from '../../../agent/next-action';
import { OutputBoundary } from '../../../agent/output-boundary';
import { abortAgent, abortReason } from '../../../agent/stop-agent';
import { resolveRunTimeLimits } from '../../../agent/time-limits/default-time-limits';
import { runTimeLimitSignal } from '../../../agent/time-limits/run-time-limit';
import type { CallModel } from '../../../agent/call-model-step';
import { advanceAgent } from '../../../agent/advance-agent';
import { collectActionResponses } from './collect-action-responses';
import type { AgentEngineRequest, EngineAction, EngineItem } from './engine-item';
import { planEngineActions } from './plan-engine-actions';
import { isEngineResumption, readEngineMetadata } from './read-engine-metadata';
import { toolRouteOf } from './tool-route';
import { agentOutputJson } from '../output/agent-output-json';
import { NodeEventSink } from '../item-run/node-event-sink';
import { UntraceableToolsError } from './untraceable-tools-error';
import { traceNodeAgent } from '../item-run/trace-node-agent';
import { loadConnectedTools } from '../langchain/load-connected-tools';
import {
	modelCallerOf,
	modelSourceNotes,
	readAgentNodeSettings,
	type NodeItemSettings,
} from '../item-run/read-agent-node-settings';
import { readBinaryPrompt } from '../binary/read-binary-parts';
import { readItemBatching, runItemBatches } from '../item-run/run-item-batches';
import { restorePromptFiles, withoutPromptFiles, withoutToolImages } from './stored-prompt-files';

/** Options of {@link runAgentEngine}. */
export interface RunAgentEngineOptions {
	/**
	 * What to do with an item whose run failed: return its output item (continue on fail)
	 * or throw the node error. The node decides; this module never builds n8n errors.
	 */
	failItem: (error: unknown, itemIndex: number) => INodeExecutionData;
	/** Test seam: replaces the chat client. */
	callModel?: CallModel;
	/** Observer: called with an item's last state when its run ends (done or failed). */
	onFinished?: (itemIndex: number, state: AgentState) => void;
}

/** What one execution of the node returns with the engine driver. */
export type AgentEngineOutput = INodeExecutionData[][] | AgentEngineRequest;

/**
 * The engine driver: one call per time n8n executes the node. Each input item's loop runs
 * (model calls, streaming through `sendChunk`) until it needs tools; the tool calls of all
 * items go out in ONE EngineRequest whose metadata holds every item's whole state. n8n's
 * engine runs each call as a node of the workflow (its own run in the execution log) and
 * calls the node again with the EngineResponse; its results become observations, matched
 * by action id, and the loops go on. When no item needs tools any more, the output items
 * are returned in input order (built like the in-process driver's, by `agentOutputItem`).
 * "Batch Processing" applies per entry: the unfinished items' loops run in batches (see
 * `runItemBatches`), so batch size bounds how many items' model calls run at once.
 *
 * Time limits: the whole-run timeout counts from the item's first entry (`startedAt` in
 * the metadata), so it spans re-entries and the tool nodes' runs; when it has run out at a
 * re-entry, the results that came back are applied and the item stops as `aborted`, as
 * in-process. The per-tool timeout does not apply: n8n's engine runs the tool nodes and
 * offers no way to stop one (use the tool node's own timeout, e.g. HTTP Request's).
 *
 * @throws {EngineStateError} when resumed with a response that holds no state of ours.
 * @throws {UntraceableToolsError} on the first entry, before anything ran, when a tool of the
 *   first item has no node n8n could run (the caller runs the execution in-process instead).
 * @throws whatever `failItem` throws for a failed item (the node's error).
 */
export async function runAgentEngine(
	context: IExecuteFunctions,
	response: EngineResponse | undefined,
	options: RunAgentEngineOptions,
): Promise<AgentEngineOutput> {
	const inputItems = context.getInputData();
	// n8n-core passes an empty response on the first execution too.
	const resumed = isEngineResumption(response) || (response?.actionResponses.length ?? 0) > 0;
	const previous = resumed && response ? readEngineMetadata(response) : undefined;
	const reEntries = previous ? previous.reEntries + 1 : 0;
	const items: EngineItem[] = previous?.items ?? [];
	const takenIds = new Set<string>();

	const advanceItem = async (itemIndex: number): Promise<EngineAction[]> => {
		const existing = items.find((item) => item.itemIndex === itemIndex);
		const run = new ItemRun(context, itemIndex, options.callModel);
		let item = existing;
		try {
			await run.readSettings();
			item = existing ?? (await run.start());
			if (!existing) items.push(item);
			else if (previous && response) await run.resume(item, response, reEntries);
			await restorePromptFiles(context, item);
			const itemActions = await run.advance(item, takenIds, reEntries);
			if (itemActions.length > 0) return itemActions;
			options.onFinished?.(itemIndex, item.state);
		} catch (error) {
			// Nothing has run yet: the caller can still choose the in-process driver for this execution.
			// (The tools are the node's, the same for every item: the other items of a batch fail the
			// same check in `start`, before any model call.)
			if (error instanceof UntraceableToolsError && !resumed && itemIndex === 0) throw error;
			if (item?.state) options.onFinished?.(itemIndex, item.state);
			const failed = options.failItem(run.boundary.error(error), itemIndex);
			if (item) item.output = failed.json;
			else items.push(failedItem(itemIndex, failed));
		}
		if (item) run.endStream();
		return [];
	};
	// "Batch Processing": how many items' loops (their model calls) run at once in this round.
	const pending = inputItems
		.map((_input, itemIndex) => itemIndex)
		.filter((itemIndex) => !items.find((item) => item.itemIndex === itemIndex)?.output);
	const batching = { ...readItemBatching(context), signal: context.getExecutionCancelSignal?.() };
	const actions = (
		await runItemBatches(
			pending.length,
			async (position) => await advanceItem(pending[position]),
			batching,
		)
	).flat();
	items.sort((left, right) => left.itemIndex - right.itemIndex);

	if (actions.length > 0) {
		return {
			actions,
			metadata: {
				toolbridge: { version: 1, reEntries, items: withoutToolImages(withoutPromptFiles(items)) },
			},
		};
	}
	return [
		items.map((item): INodeExecutionData => ({
			json: item.output ?? {},
			pairedItem: { item: item.itemIndex },
		})),
	];
}

/** One item's part of one execution of the node. */
class ItemRun {
	private settings!: NodeItemSettings;
	/** Where this item's data leaves the core: built from the settings' secrets (none until they are read). */
	boundary = new OutputBoundary();
	private sink: NodeEventSink;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly itemIndex: number,
		private readonly callModel?: CallModel,
	) {
		this.sink = new NodeEventSink(context, itemIndex);
	}

	async readSettings(): Promise<void> {
		this.settings = await readAgentNodeSettings(this.context, this.itemIndex);
		this.boundary = new OutputBoundary({ secrets: this.settings.secrets });
	}

	/** First entry: tools, routes, memory, the initial state. */
	async start(): Promise<EngineItem> {
		const connected = await loadConnectedTools(this.context, this.itemIndex);
		const tools = connected.map(agentToolFromLangChain);
		const routes = Object.fromEntries(
			connected.map((tool) => [
				(tool as LangChainToolLike).name,
				toolRouteOf(tool as LangChainToolLike),
			]),
		);
		const untraceable = Object.entries(routes)
			.filter(([, route]) => route.nodeName === undefined)
			.map(([name]) => name);
		if (untraceable.length > 0) throw new UntraceableToolsError(untraceable);
		const warnings: string[] = [];
		const history = await (await this.memory(warnings)).load();
		const prompt = await readBinaryPrompt(this.context, this.itemIndex, this.settings.prompt);
		const state = createAgentState({
			config: this.settings.config,
			prompt: prompt.prompt,
			history,
			tools,
		});
		const item: EngineItem = {
			itemIndex: this.itemIndex,
			startedAt: Date.now(),
			state,
			routes,
			results: [],
			actionIds: {},
			approved: [],
			debugLog: [],
			warnings,
		};
		this.sink = new NodeEventSink(
			this.context,
			this.itemIndex,
			item.debugLog,
			this.boundary.redactor,
		);
		this.sink.begin();
		for (const warning of warnings) this.debug(() => `[WARN] ${warning}`);
		for (const line of [
			...modelSourceNotes(this.settings),
			...prompt.notes,
			...debugLines.start(state),
		])
			this.debug(() => line);
		if (this.settings.toolTimeoutMs) {
			this.debug(
				() =>
					'[DEBUG] "Tool Timeout" does not apply: n8n\'s engine runs the tool nodes (set a timeout on the tool node itself, or "Tool Execution" to "In-Process")',
			);
		}
		return item;
	}

	/** A re-entry: the engine's results for this item's actions. */
	async resume(item: EngineItem, response: EngineResponse, reEntries: number): Promise<void> {
		this.sink = new NodeEventSink(
			this.context,
			this.itemIndex,
			item.debugLog,
			this.boundary.redactor,
		);
		const mine = response.actionResponses.filter((entry) =>
			Object.values(item.actionIds).includes(entry.action.id),
		);
		this.debug(
			() =>
				`[DEBUG] Engine re-entry ${reEntries}: ${mine.length} action result(s) for this item (${response.actionResponses.length} in the response)`,
		);
		const inputJson = this.context.getInputData()[this.itemIndex]?.json ?? {};
		const { helpers } = this.context;
		const lines = await collectActionResponses(
			item,
			response,
			inputJson,
			this.boundary,
			async (binaryId) => await helpers.binaryToBuffer(await helpers.getBinaryStream(binaryId)),
		);
		for (const line of lines) this.debug(() => line);
	}

	/**
	 * Runs the loop until it needs the engine (returns the actions) or the item is finished
	 * (sets `item.output`, returns none).
	 * @throws AgentStoppedError or the model error when the run fails.
	 */
	async advance(item: EngineItem, takenIds: Set<string>, entry: number): Promise<EngineAction[]> {
		// The whole-run limit (default 600 s) counts from the item's first entry, across re-entries.
		const { runTimeoutMs } = resolveRunTimeLimits({ runTimeoutMs: this.settings.runTimeoutMs });
		const limit = runTimeLimitSignal(
			this.context.getExecutionCancelSignal?.(),
			runTimeoutMs,
			item.startedAt,
		);
		// One `invoke_agent` span per entry of the node (n8n re-enters it after each round of tool
		// nodes, which n8n's own node spans show); the last one carries the run's usage.
		const trace = traceNodeAgent(this.context, this.settings, {
			prompt: entry === 0 ? this.settings.prompt : undefined,
			redactor: this.boundary.redactor,
			attributes: { 'toolbridge.engine.entry': entry },
		});
		try {
			const actions = await trace.run(() =>
				this.step(item, takenIds, limit.signal, trace.callModel(this.modelCaller())),
			);
			trace.end(actions.length > 0 ? {} : { usage: item.state.usage });
			return actions;
		} catch (error) {
			trace.fail(error);
			throw error;
		} finally {
			limit.dispose();
		}
	}

	private modelCaller(): CallModel {
		return this.callModel ?? modelCallerOf(this.settings);
	}

	private async step(
		item: EngineItem,
		takenIds: Set<string>,
		signal: AbortSignal | undefined,
		callModel: CallModel,
	): Promise<EngineAction[]> {
		let action = nextAction(item.state);
		for (;;) {
			if (action.type === 'call-model') {
				({ state: item.state, action } = await advanceAgent(item.state, {
					callModel,
					signal,
					emit: this.sink.onEvent,
					debug: (line) => this.debug(line),
					boundary: this.boundary,
				}));
			} else if (action.type === 'run-tools') {
				const waiting = action.calls.filter(
					(call) => !item.results.some((result) => result.toolCallId === call.toolCallId),
				);
				if (waiting.length > 0 && signal?.aborted) {
					// As in-process, where the loop checks the signal before running tools: no new engine actions.
					item.state = abortAgent(item.state, abortReason(signal));
					this.debug(() => debugLines.end(item.state));
					action = nextAction(item.state);
				} else if (waiting.length > 0) {
					const planned = planEngineActions(item, waiting, takenIds);
					item.results.push(...planned.results);
					item.actionIds = { ...item.actionIds, ...planned.actionIds };
					for (const planAction of planned.actions) {
						this.debug(
							() =>
								`[DEBUG] Engine action ${planAction.id}: run node "${planAction.nodeName}" for tool ${planAction.metadata.toolName}${planAction.metadata.hitl ? ' (human review)' : ''}`,
						);
					}
					if (planned.actions.length > 0) return planned.actions;
				} else {
					const ran = new Set(Object.keys(item.actionIds));
					const stepsBefore = item.state.steps.length;
					item.state = applyToolResults(item.state, item.results);
					for (const step of item.state.steps.slice(stepsBefore))
						this.debug(() =>
							ran.has(step.toolCallId) ? debugLines.toolEnd(step) : debugLines.refused(step),
						);
					item.results = [];
					item.actionIds = {};
					item.approved = [];
					action = nextAction(item.state);
				}
			} else if (action.type === 'done') {
				item.warnings ??= [];
				const warningsBefore = item.warnings.length;
				await (
					await this.memory(item.warnings)
				).save(item.state.messages.slice(item.state.turnStart));
				for (const warning of item.warnings.slice(warningsBefore))
					this.debug(() => `[WARN] ${warning}`);
				item.output = this.boundary.redactor.value(
					agentOutputJson(action.result, this.settings, item.debugLog),
				);
				if (item.warnings.length > 0) item.output.warnings = item.warnings;
				return [];
			} else {
				throw action.error;
			}
		}
	}

	endStream(): void {
		this.sink.end();
	}

	/** The item's memory under the node's "On Memory Error" policy; its warnings go to `warnings` (kept in the item). */
	private async memory(warnings: string[]): Promise<NodeMemory> {
		return await NodeMemory.connect(this.context, this.itemIndex, {
			policy: this.settings.memoryErrorPolicy,
			redactor: this.boundary.redactor,
			report: (warning) => this.context.logger?.warn?.(warning),
			warnings,
		});
	}

	/** A `[DEBUG]` line, built and redacted only when the debug log is on. */
	private debug(line: () => string): void {
		if (this.settings?.debugLog) this.sink.debug(this.boundary.line(line()));
	}
}

function failedItem(itemIndex: number, failed: INodeExecutionData): EngineItem {
	// Settings or tools could not be read: no state to keep, only the error item.
	return { itemIndex, output: failed.json } as EngineItem;
}
