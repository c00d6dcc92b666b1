/**
 * One prompt of the builder eval and the answers a model gave to it, recorded: its discovery
 * tool calls and its code answers (including wrong ones the correction loop must fix). Offline,
 * the eval replays them through a loopback fake of the Chat Completions API; with a model key
 * the same prompt goes to the real model.
 */

/** One recorded model turn: tool calls, or a text answer. */
export type RecordedTurn =
	| { toolCalls: Array<{ name: 'search_nodes' | 'get_nodes'; arguments: Record<string, unknown> }> }
	| { text: string };

/** A prompt of the eval. */
export interface BuilderEvalCase {
	/** Short kebab-case name, shown in the table. */
	id: string;
	/** What the user asks for. */
	prompt: string;
	/** A workflow to edit, as an n8n export (a path relative to the repository, or the object). */
	from?: string | object;
	/** The model's turns, in order, as recorded. */
	turns: RecordedTurn[];
	/** What replaying the recording must give; a difference fails the offline eval. */
	expect: { valid: boolean; rounds: number };
	/** What the case shows (a wrong first answer, an edit …). */
	note?: string;
}

/** A `search_nodes` call. */
export function search(...queries: string[]): RecordedTurn {
	return { toolCalls: [{ name: 'search_nodes', arguments: { queries } }] };
}

/** A `get_nodes` call: ids, or `{ nodeId, resource, operation }` / `{ nodeId, mode }` objects. */
export function lookup(...nodeIds: Array<string | Record<string, unknown>>): RecordedTurn {
	return { toolCalls: [{ name: 'get_nodes', arguments: { nodeIds } }] };
}

/** A code answer as models write it: a sentence, then the code block. */
export function reply(prose: string, code: string): RecordedTurn {
	return { text: `${prose}\n\n\`\`\`javascript\n${code.trim()}\n\`\`\`` };
}

/** A plain text answer (no code). */
export function say(text: string): RecordedTurn {
	return { text };
}
