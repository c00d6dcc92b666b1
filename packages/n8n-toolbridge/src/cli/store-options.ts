import type { ConversationStore } from 'n8n-nodes-toolbridge';
import { ConversationStoreError } from '../errors/conversation-store-error';
import { UsageError } from '../errors/usage-error';
import { defaultSessionStoreFolder, openConversationStore } from '../store/open-conversation-store';
import { storeOptions } from './option-specs';

export { storeOptions };

/** Help line of `--store`. */
export const storeOptionHelp = `  --store URL          where conversations live between turns (Simple Memory sessions,
                       Responses state), shared by every process given the same one:
                       redis://HOST:PORT, postgres://USER@HOST/DB or a folder path
                       (one machine); default this process's memory. See
                       docs/conversations.md`;

/**
 * Opens `--store`; without it, `fallbackFolder` when given (what `run --session` keeps its
 * conversations in, so two runs continue one) or this process's memory.
 *
 * @throws {UsageError} for a `--store` that is neither a known URL nor a path (exit 2).
 * @throws {ConversationStoreError} `STORE_UNAVAILABLE` when its server does not answer (exit 1).
 */
export async function conversationStoreFrom(
	values: Record<string, unknown>,
	fallbackFolder?: string,
): Promise<ConversationStore> {
	try {
		return await openConversationStore((values.store as string | undefined) ?? fallbackFolder);
	} catch (error) {
		if (error instanceof ConversationStoreError && error.code === 'STORE_URL_INVALID')
			throw new UsageError(error.message);
		throw error;
	}
}

/**
 * `--session ID`: 1–256 printable characters, or undefined without the flag.
 * @throws {UsageError} for an empty or overlong id.
 */
export function sessionIdFrom(values: Record<string, unknown>): string | undefined {
	const id = values.session as string | undefined;
	if (id === undefined) return undefined;
	if (id.trim() === '' || id.length > 256 || [...id].some((character) => character < ' '))
		throw new UsageError(
			`--session must be 1–256 printable characters, not ${JSON.stringify(id)}.`,
		);
	return id;
}

export { defaultSessionStoreFolder };
