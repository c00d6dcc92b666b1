import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { inProcessConversationStore, type ConversationStore } from 'n8n-nodes-toolbridge';
import { ConversationStoreError } from '../errors/conversation-store-error';
import { openFileConversationStore } from './file-conversation-store';
import { openPostgresConversationStore } from './postgres-conversation-store';
import { openRedisConversationStore } from './redis-conversation-store';
import type { StoreLimits } from './store-limits';

/**
 * Opens the conversation store `spec` names (`--store`): undefined → this process's memory
 * (bounded, gone at exit); `redis://…` / `rediss://…` → Redis; `postgres://…` /
 * `postgresql://…` → Postgres; anything else without `://` → a folder on this machine.
 * Close it (`close()`) when done.
 *
 * @throws {ConversationStoreError} `STORE_URL_INVALID` for another scheme or an unparsable
 * URL; `STORE_UNAVAILABLE` when the server or folder cannot be used.
 */
export async function openConversationStore(
	spec: string | undefined,
	limits: StoreLimits = {},
): Promise<ConversationStore> {
	if (spec === undefined)
		return inProcessConversationStore({ ttlMs: limits.ttlMs, maxEntries: limits.maxEntries });
	if (!spec.includes('://')) {
		if (spec.trim() === '')
			throw new ConversationStoreError('STORE_URL_INVALID', 'The --store value is empty.');
		return openFileConversationStore(resolve(spec), limits);
	}
	let url: URL;
	try {
		url = new URL(spec);
	} catch (error) {
		throw new ConversationStoreError('STORE_URL_INVALID', `The --store URL cannot be parsed.`, {
			cause: error,
		});
	}
	const location = `${url.hostname || 'localhost'}${url.port ? `:${url.port}` : ''}`;
	if (url.protocol === 'redis:' || url.protocol === 'rediss:')
		return openRedisConversationStore(spec, location, limits);
	if (url.protocol === 'postgres:' || url.protocol === 'postgresql:')
		return openPostgresConversationStore(spec, location, limits);
	throw new ConversationStoreError(
		'STORE_URL_INVALID',
		`The --store scheme "${url.protocol}" is not one toolbridge knows: use redis://, rediss://, postgres://, postgresql:// or a folder path.`,
	);
}

/**
 * Where `toolbridge run --session` keeps conversations without `--store`, so that two runs
 * continue one: `TOOLBRIDGE_CACHE_DIR/sessions`, else `$XDG_CACHE_HOME/toolbridge/sessions`,
 * else `~/.cache/toolbridge/sessions`.
 */
export function defaultSessionStoreFolder(env: NodeJS.ProcessEnv = process.env): string {
	if (env.TOOLBRIDGE_CACHE_DIR) return join(resolve(env.TOOLBRIDGE_CACHE_DIR), 'sessions');
	const cache = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
	return join(cache, 'toolbridge', 'sessions');
}
