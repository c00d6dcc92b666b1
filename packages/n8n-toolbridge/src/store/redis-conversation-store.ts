import { randomUUID } from 'node:crypto';
import type { ConversationStore } from 'n8n-nodes-toolbridge';
import { createClient } from 'redis';
import { ConversationStoreError } from '../errors/conversation-store-error';
import { resolveStoreLimits, type StoreLimits } from './store-limits';

/** Deletes a lock only while it is still the caller's (its token), in one step. */
const RELEASE_SCRIPT =
	"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** How long the first connection may take before `--store` is reported unreachable. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A {@link ConversationStore} in Redis (`--store redis://…` or `rediss://…`), shared by every
 * replica: values under `toolbridge:conversation:<key>` written with `SET … PX` (they expire
 * in Redis itself; a value over `maxValueChars` is not kept), locks under
 * `toolbridge:lock:<key>` taken with `SET NX PX` and a random token and released by a script
 * that deletes them only while they still hold that token. Redis's own `maxmemory` bounds the
 * total (`maxEntries` is not enforced here). `location` names the server in messages without
 * its password.
 *
 * @throws {ConversationStoreError} `STORE_UNAVAILABLE` when Redis does not answer within 5 s.
 */
export async function openRedisConversationStore(
	url: string,
	location: string,
	limits: StoreLimits = {},
): Promise<ConversationStore> {
	const { ttlMs, maxValueChars } = resolveStoreLimits(limits);
	let connecting = true;
	const client = createClient({
		url,
		socket: {
			connectTimeout: CONNECT_TIMEOUT_MS,
			// Give up on the first connection at once (reported below); later, reconnect with backoff.
			reconnectStrategy: (retries) => (connecting ? false : Math.min(100 * 2 ** retries, 2000)),
		},
	});
	// Without a listener an error event would end the process; each command reports its own.
	client.on('error', () => {});
	try {
		await client.connect();
		connecting = false;
	} catch (error) {
		await client.disconnect().catch(() => undefined);
		throw unavailable(location, error);
	}
	const valueKey = (key: string) => `toolbridge:conversation:${key}`;
	const lockKey = (key: string) => `toolbridge:lock:${key}`;
	const command = async <T>(run: () => Promise<T>): Promise<T> => {
		try {
			return await run();
		} catch (error) {
			throw unavailable(location, error);
		}
	};
	return {
		get: (key) => command(async () => (await client.get(valueKey(key))) ?? undefined),
		set: (key, value, options) =>
			command(async () => {
				if (value.length > maxValueChars) await client.del(valueKey(key));
				else await client.set(valueKey(key), value, { PX: options?.ttlMs ?? ttlMs });
			}),
		delete: (key) =>
			command(async () => {
				await client.del(valueKey(key));
			}),
		lock: (key, lockTtlMs) =>
			command(async () => {
				const token = randomUUID();
				const taken = await client.set(lockKey(key), token, { NX: true, PX: lockTtlMs });
				if (taken !== 'OK') return undefined;
				return async () => {
					await command(() =>
						client.eval(RELEASE_SCRIPT, { keys: [lockKey(key)], arguments: [token] }),
					);
				};
			}),
		async close() {
			await client.quit().catch(() => client.disconnect().catch(() => undefined));
		},
	};
}

function unavailable(location: string, error: unknown): ConversationStoreError {
	return new ConversationStoreError(
		'STORE_UNAVAILABLE',
		`The conversation store (Redis at ${location}) does not answer: ${(error as Error)?.message ?? String(error)}`,
		{ cause: error },
	);
}
