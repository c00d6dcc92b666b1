import { randomUUID } from 'node:crypto';
import type { ConversationStore } from 'n8n-nodes-toolbridge';
import pg from 'pg';
import { ConversationStoreError } from '../errors/conversation-store-error';
import { resolveStoreLimits, type StoreLimits } from './store-limits';

const VALUES = 'toolbridge_conversations';
const LOCKS = 'toolbridge_conversation_locks';

const CREATE_TABLES = `
CREATE TABLE IF NOT EXISTS ${VALUES} (key text PRIMARY KEY, value text NOT NULL, expires timestamptz NOT NULL);
CREATE INDEX IF NOT EXISTS ${VALUES}_expires ON ${VALUES} (expires);
CREATE TABLE IF NOT EXISTS ${LOCKS} (key text PRIMARY KEY, token text NOT NULL, expires timestamptz NOT NULL);`;

/**
 * A {@link ConversationStore} in Postgres (`--store postgres://…`), shared by every replica:
 * the table `toolbridge_conversations` (key, value, expires — created when missing), read only
 * while unexpired; a sweep every `sweepEveryMs` deletes expired rows, then the ones that
 * expire soonest past `maxEntries`; a value over `maxValueChars` is not kept. A lock is a row
 * of `toolbridge_conversation_locks` with a token and an expiry, taken by one `INSERT … ON
 * CONFLICT DO UPDATE … WHERE expired` (atomic: one of two racing turns gets it) and deleted
 * on release only while it holds the caller's token. A pool of at most 4 connections.
 *
 * @throws {ConversationStoreError} `STORE_UNAVAILABLE` when the database cannot be reached
 * or the tables cannot be created.
 */
export async function openPostgresConversationStore(
	url: string,
	location: string,
	limits: StoreLimits = {},
): Promise<ConversationStore> {
	const { ttlMs, maxValueChars, maxEntries, sweepEveryMs } = resolveStoreLimits(limits);
	const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000 });
	// An idle connection's error (the server restarted) must not end the process.
	pool.on('error', () => {});
	const query = async (text: string, values?: unknown[]) => {
		try {
			return await pool.query(text, values);
		} catch (error) {
			throw new ConversationStoreError(
				'STORE_UNAVAILABLE',
				`The conversation store (Postgres at ${location}) failed: ${(error as Error).message}`,
				{ cause: error },
			);
		}
	};
	try {
		await query(CREATE_TABLES);
	} catch (error) {
		// Replicas starting at once race on CREATE TABLE IF NOT EXISTS; the loser tries again.
		await query(CREATE_TABLES).catch(async () => {
			await pool.end().catch(() => undefined);
			throw error;
		});
	}
	const sweep = async () => {
		await query(`DELETE FROM ${VALUES} WHERE expires <= now()`);
		await query(`DELETE FROM ${LOCKS} WHERE expires <= now()`);
		await query(
			`DELETE FROM ${VALUES} WHERE key IN (SELECT key FROM ${VALUES} ORDER BY expires DESC OFFSET $1)`,
			[maxEntries],
		);
	};
	const timer = setInterval(() => void sweep().catch(() => undefined), sweepEveryMs);
	timer.unref();
	return {
		async get(key) {
			const result = await query(`SELECT value FROM ${VALUES} WHERE key = $1 AND expires > now()`, [
				key,
			]);
			return (result.rows[0] as { value: string } | undefined)?.value;
		},
		async set(key, value, options) {
			if (value.length > maxValueChars) {
				await query(`DELETE FROM ${VALUES} WHERE key = $1`, [key]);
				return;
			}
			await query(
				`INSERT INTO ${VALUES} (key, value, expires) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
				 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires = EXCLUDED.expires`,
				[key, value, options?.ttlMs ?? ttlMs],
			);
		},
		async delete(key) {
			await query(`DELETE FROM ${VALUES} WHERE key = $1`, [key]);
		},
		async lock(key, lockTtlMs) {
			const token = randomUUID();
			const taken = await query(
				`INSERT INTO ${LOCKS} (key, token, expires) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
				 ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires = EXCLUDED.expires
				 WHERE ${LOCKS}.expires <= now() RETURNING token`,
				[key, token, lockTtlMs],
			);
			if (taken.rowCount !== 1) return undefined;
			return async () => {
				await query(`DELETE FROM ${LOCKS} WHERE key = $1 AND token = $2`, [key, token]);
			};
		},
		async close() {
			clearInterval(timer);
			await pool.end().catch(() => undefined);
		},
	};
}
