import type { IExecuteFunctions } from 'n8n-workflow';
import type { ChatMessage } from '../../../chat/types';
import type { Redactor } from '../../../chat/redactor';
import type { NodeEventSink } from '../item-run/node-event-sink';
import type { MemoryErrorPolicy } from '../../../node-settings/read-loop-options';
import {
	loadMemoryHistory,
	saveToMemory,
	type ChatMemoryLike,
} from '../../../langchain/chat-memory';

/**
 * The chat memory connected to one item's run, with the node's memory-error policy: with
 * `continue`, a memory that cannot be loaded gives an empty history and a warning (the run
 * answers without the conversation so far), and one that cannot save gives the answer with a
 * warning; with `fail`, both errors fail the item as before. Warnings (redacted) are kept for
 * the output item's `warnings` and go to the debug log and n8n's log.
 */
export class NodeMemory {
	/** What went wrong with the memory so far, as the output item's `warnings` says it. */
	readonly warnings: string[];

	private constructor(
		private readonly memory: ChatMemoryLike | undefined,
		private readonly policy: MemoryErrorPolicy,
		private readonly report: (warning: string) => void,
		warnings: string[],
		private readonly redactor: Redactor,
	) {
		this.warnings = warnings;
	}

	/**
	 * The item's connected memory (`ai_memory`). Reaching the memory sub-node (its
	 * `supplyData`, e.g. a Postgres connection) falls under the policy too.
	 * @param warnings where warnings are kept (the engine driver persists them between re-entries)
	 */
	static async connect(
		context: IExecuteFunctions,
		itemIndex: number,
		options: {
			policy?: MemoryErrorPolicy;
			redactor: Redactor;
			report?: (warning: string) => void;
			warnings?: string[];
		},
	): Promise<NodeMemory> {
		const policy = options.policy ?? 'continue';
		const report = options.report ?? (() => undefined);
		const warnings = options.warnings ?? [];
		let memory: ChatMemoryLike | undefined;
		try {
			memory = (await context.getInputConnectionData('ai_memory', itemIndex)) as
				ChatMemoryLike | undefined;
		} catch (error) {
			if (policy === 'fail') throw error;
			const node = new NodeMemory(undefined, policy, report, warnings, options.redactor);
			node.warn('could not be reached', error, 'the run goes on without the conversation history');
			return node;
		}
		return new NodeMemory(memory ?? undefined, policy, report, warnings, options.redactor);
	}

	/** Whether a memory is connected (and reachable). */
	get connected(): boolean {
		return this.memory !== undefined;
	}

	/**
	 * The conversation so far (empty without a memory, or when loading failed under `continue`).
	 * @throws the memory's error under `fail`.
	 */
	async load(): Promise<ChatMessage[]> {
		if (!this.memory) return [];
		try {
			return await loadMemoryHistory(this.memory);
		} catch (error) {
			if (this.policy === 'fail') throw error;
			this.warn('could not be loaded', error, 'the run went on without the conversation history');
			return [];
		}
	}

	/**
	 * Appends a finished run's messages.
	 * @throws the memory's error under `fail`.
	 */
	async save(messages: readonly ChatMessage[]): Promise<void> {
		if (!this.memory) return;
		try {
			await saveToMemory(this.memory, messages);
		} catch (error) {
			if (this.policy === 'fail') throw error;
			this.warn(
				'could not save this turn',
				error,
				'the answer is returned, but the next turn will not remember it',
			);
		}
	}

	private warn(what: string, error: unknown, consequence: string): void {
		const reason = error instanceof Error ? error.message : String(error);
		const warning = this.redactor.text(
			`Memory ${what}: ${reason} — ${consequence} (On Memory Error: Continue).`,
		);
		this.warnings.push(warning);
		this.report(warning);
	}
}

/**
 * An in-process item run's memory: warnings go to n8n's log and, with the debug log on, to the
 * item's debug lines — the ones before the item's stream opened when `openStream` is called
 * (a stream chunk may not come before the stream's `begin`), later ones at once.
 */
export async function connectItemMemory(
	context: IExecuteFunctions,
	itemIndex: number,
	options: {
		policy: MemoryErrorPolicy;
		debugLog: boolean;
		redactor: Redactor;
		sink: NodeEventSink;
	},
): Promise<{ memory: NodeMemory; openStream: () => void }> {
	let open = false;
	const memory = await NodeMemory.connect(context, itemIndex, {
		policy: options.policy,
		redactor: options.redactor,
		report: (warning) => {
			context.logger?.warn?.(warning);
			if (options.debugLog && open) options.sink.debug(`[WARN] ${warning}`);
		},
	});
	const openStream = (): void => {
		options.sink.begin();
		open = true;
		if (options.debugLog)
			for (const warning of memory.warnings) options.sink.debug(`[WARN] ${warning}`);
	};
	return { memory, openStream };
}
