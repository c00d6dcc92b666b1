/** Helpers for the chat tests: run the parse chain over bytes cut in given places. */
import { collectTurn } from '../../src/chat/collect-turn';
import { parseChatStream } from '../../src/chat/parse-chat-stream';
import type { AssistantTurn, StreamPart } from '../../src/chat/types';

/** Yields `bytes` in pieces ending at the given offsets. */
export async function* bytesCutAt(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
	let start = 0;
	for (const cut of [...cuts, bytes.length]) {
		yield bytes.subarray(start, cut);
		start = cut;
	}
}

/** All parts the chain produces for the pieces. */
export async function partsOf(pieces: AsyncIterable<Uint8Array>): Promise<StreamPart[]> {
	const parts: StreamPart[] = [];
	for await (const part of parseChatStream(pieces)) parts.push(part);
	return parts;
}

/** The assembled turn, or the error collectTurn throws, as a comparable value. */
export async function outcomeOf(
	pieces: AsyncIterable<Uint8Array>,
): Promise<{ turn?: AssistantTurn; error?: string }> {
	try {
		return { turn: await collectTurn(parseChatStream(pieces)) };
	} catch (error) {
		return { error: `${(error as Error).name}: ${(error as Error).message}` };
	}
}
