import { ToolbridgeError } from '../errors/toolbridge-error';
import type { WireToolCallDelta } from './chat-chunk';
import { parseToolArguments } from './parse-tool-arguments';
import type { AssembledToolCall } from './types';

interface PendingCall {
	/** Position of the call in this turn (0, 1, …): stable even when providers reuse wire indexes. */
	position: number;
	id?: string;
	name: string;
	/** Argument pieces, joined once at the end (linear time for 1-byte deltas). */
	argumentPieces: string[];
}

/** What a delta contributed, as reported in a `tool-call-delta` part. */
export interface ToolCallDeltaResult {
	position: number;
	id?: string;
	name?: string;
	argumentsDelta?: string;
}

/**
 * Assembles streamed tool-call deltas into whole calls.
 *
 * A delta belongs to the call with its `id`; without an id, to the call last seen at its
 * `index`; without either, to the latest call. A new id at a used index starts a new call
 * (some providers send parallel calls all at index 0). The name may come in any delta.
 */
export class ToolCallAccumulator {
	private readonly calls: PendingCall[] = [];
	private readonly byId = new Map<string, PendingCall>();
	private readonly byIndex = new Map<number, PendingCall>();

	/** Adds one wire delta and reports what it contributed. */
	add(delta: WireToolCallDelta): ToolCallDeltaResult {
		const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
		const index = typeof delta.index === 'number' ? delta.index : undefined;
		let call: PendingCall | undefined;
		if (id !== undefined) {
			call = this.byId.get(id);
			if (!call) {
				// A known index whose call has no id yet (id came late) keeps that call.
				const atIndex = index === undefined ? undefined : this.byIndex.get(index);
				call = atIndex && atIndex.id === undefined ? atIndex : this.create();
				call.id = id;
				this.byId.set(id, call);
			}
		} else if (index !== undefined) {
			call = this.byIndex.get(index) ?? this.create();
		} else {
			call = this.calls[this.calls.length - 1] ?? this.create();
		}
		if (index !== undefined) this.byIndex.set(index, call);

		const result: ToolCallDeltaResult = { position: call.position };
		if (id !== undefined) result.id = id;
		const name = delta.function?.name;
		if (typeof name === 'string' && name !== '' && name !== call.name) {
			// Set once; a name streamed in pieces is joined.
			call.name += name;
			result.name = name;
		}
		const argumentsDelta = delta.function?.arguments;
		if (typeof argumentsDelta === 'string' && argumentsDelta !== '') {
			call.argumentPieces.push(argumentsDelta);
			result.argumentsDelta = argumentsDelta;
		}
		return result;
	}

	/** Number of calls seen so far. */
	get size(): number {
		return this.calls.length;
	}

	/**
	 * The assembled calls in order. Broken or run-together arguments, or a call that never
	 * got a name, give a call with `error` set (it is never dropped or split).
	 */
	finish(): AssembledToolCall[] {
		return this.calls.map((call) => {
			const argumentsText = call.argumentPieces.join('');
			const assembled: AssembledToolCall = {
				toolCallId: call.id ?? `toolbridge_call_${call.position}`,
				name: call.name,
				argumentsText,
			};
			if (call.name === '') {
				assembled.error = `Tool call ${assembled.toolCallId} has no function name; the model sent only its arguments.`;
				return assembled;
			}
			try {
				assembled.arguments = parseToolArguments(argumentsText);
			} catch (error) {
				const detail = ToolbridgeError.isInstance(error) ? error.message : String(error);
				assembled.error = `Arguments of tool call '${call.name}' (${assembled.toolCallId}) could not be used. ${detail}`;
			}
			return assembled;
		});
	}

	private create(): PendingCall {
		const call: PendingCall = { position: this.calls.length, name: '', argumentPieces: [] };
		this.calls.push(call);
		return call;
	}
}
