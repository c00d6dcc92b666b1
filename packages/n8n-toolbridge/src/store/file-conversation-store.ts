import { createHash, randomUUID } from 'node:crypto';
import {
	link,
	mkdir,
	readdir,
	readFile,
	rename,
	stat,
	unlink,
	utimes,
	writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationStore } from 'n8n-nodes-toolbridge';
import { ConversationStoreError } from '../errors/conversation-store-error';
import { resolveStoreLimits, type StoreLimits } from './store-limits';

/** An empty lock file (its writer between create and write) this old is a crashed writer's. */
const EMPTY_LOCK_GRACE_MS = 5000;

/**
 * A {@link ConversationStore} in a folder, for the processes of one machine (`--store PATH`):
 * one file per key (`values/<sha256 of the key>.json`), written to a temporary file and renamed
 * over the old one, so a reader sees the old value or the new, never half of one; the file's
 * mtime is its expiry, so a sweep (at most every `sweepEveryMs`, on a write) deletes expired
 * values by `stat` alone, then the ones that expire soonest past `maxEntries`. A lock is
 * `locks/<sha256>.lock`, created with O_EXCL and holding its expiry and owner token; a lapsed
 * one is renamed away (only one process wins the rename) before it is taken again. Files are
 * the user's only (0600 in a 0700 folder): conversations are private. Not for network file
 * systems, whose rename and O_EXCL may not be atomic.
 *
 * @throws {ConversationStoreError} `STORE_UNAVAILABLE` when the folder cannot be created.
 */
export async function openFileConversationStore(
	folder: string,
	limits: StoreLimits = {},
): Promise<ConversationStore> {
	const { ttlMs, maxValueChars, maxEntries, sweepEveryMs } = resolveStoreLimits(limits);
	const values = join(folder, 'values');
	const locks = join(folder, 'locks');
	try {
		await mkdir(values, { recursive: true, mode: 0o700 });
		await mkdir(locks, { recursive: true, mode: 0o700 });
	} catch (error) {
		throw new ConversationStoreError(
			'STORE_UNAVAILABLE',
			`The conversation store folder ${folder} cannot be created: ${(error as Error).message}`,
			{ cause: error },
		);
	}
	const name = (key: string) => createHash('sha256').update(key).digest('hex');
	const valuePath = (key: string) => join(values, `${name(key)}.json`);
	let lastSweep = 0;
	let sweeping: Promise<void> | undefined;

	async function sweep(): Promise<void> {
		const now = Date.now();
		const kept: { path: string; expires: number }[] = [];
		for (const file of await readdir(values).catch(() => [] as string[])) {
			const path = join(values, file);
			const info = await stat(path).catch(() => undefined);
			if (!info) continue;
			const stray = file.endsWith('.tmp') && info.ctimeMs < now - 60_000;
			if (stray || (file.endsWith('.json') && info.mtimeMs <= now)) await unlinkQuietly(path);
			else if (file.endsWith('.json')) kept.push({ path, expires: info.mtimeMs });
		}
		if (kept.length <= maxEntries) return;
		kept.sort((first, second) => first.expires - second.expires);
		for (const { path } of kept.slice(0, kept.length - maxEntries)) await unlinkQuietly(path);
	}

	function sweepWhenDue(): void {
		if (sweeping || Date.now() - lastSweep < sweepEveryMs) return;
		lastSweep = Date.now();
		sweeping = sweep().finally(() => (sweeping = undefined));
	}

	return {
		async get(key) {
			const text = await readFile(valuePath(key), 'utf8').catch(() => undefined);
			if (text === undefined) return undefined;
			try {
				const stored = JSON.parse(text) as { key: string; value: string; expires: number };
				return stored.key === key && stored.expires > Date.now() ? stored.value : undefined;
			} catch {
				return undefined;
			}
		},
		async set(key, value, options) {
			const path = valuePath(key);
			if (value.length > maxValueChars) return unlinkQuietly(path);
			const expires = Date.now() + (options?.ttlMs ?? ttlMs);
			const temporary = join(values, `.${name(key)}.${process.pid}.${randomUUID()}.tmp`);
			await writeFile(temporary, JSON.stringify({ key, value, expires }), { mode: 0o600 });
			await utimes(temporary, expires / 1000, expires / 1000);
			await rename(temporary, path);
			sweepWhenDue();
		},
		async delete(key) {
			await unlinkQuietly(valuePath(key));
		},
		async lock(key, lockTtlMs) {
			const path = join(locks, `${name(key)}.lock`);
			const token = randomUUID();
			for (let attempt = 0; attempt < 2; attempt++) {
				try {
					await writeFile(path, `${Date.now() + lockTtlMs} ${token}`, { flag: 'wx', mode: 0o600 });
					return async () => {
						const held = await readFile(path, 'utf8').catch(() => '');
						if (held.endsWith(` ${token}`)) await unlinkQuietly(path);
					};
				} catch (error) {
					if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
				}
				if (!(await breakLapsedLock(path, token))) return undefined;
			}
			return undefined;
		},
		async close() {
			await sweeping;
		},
	};
}

/** A lock file's expiry: its first word, or (written but still empty) its mtime plus a grace. */
async function lockExpiry(path: string): Promise<number | undefined> {
	const text = await readFile(path, 'utf8').catch(() => undefined);
	if (text === undefined) return undefined;
	const expires = Number(text.split(' ')[0]);
	if (text !== '' && Number.isFinite(expires)) return expires;
	const info = await stat(path).catch(() => undefined);
	return info && info.mtimeMs + EMPTY_LOCK_GRACE_MS;
}

/**
 * Removes a lapsed lock: true when the lock is gone (try again), false when one is held.
 * The rename lets one process of several that saw it lapse remove it; one that took a fresh
 * lock in between puts it back.
 */
async function breakLapsedLock(path: string, token: string): Promise<boolean> {
	const expires = await lockExpiry(path);
	if (expires === undefined) return true;
	if (expires > Date.now()) return false;
	const aside = `${path}.${token}.lapsed`;
	try {
		await rename(path, aside);
	} catch {
		return true;
	}
	const movedExpires = await lockExpiry(aside);
	if (movedExpires !== undefined && movedExpires > Date.now()) {
		await link(aside, path).catch(() => undefined);
		await unlinkQuietly(aside);
		return false;
	}
	await unlinkQuietly(aside);
	return true;
}

async function unlinkQuietly(path: string): Promise<void> {
	await unlink(path).catch(() => undefined);
}
