// @ts-check
/**
 * A cross-process lock built on an atomic `mkdir`, so two e2e runs (or a run and
 * `npm run n8n:local`) never install into the same cache at once.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether a process with this id is alive.
 * @param {number} processId
 * @returns {boolean}
 */
function isAlive(processId) {
	try {
		process.kill(processId, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

/**
 * Acquire the lock directory `lockPath`, waiting while another live process holds it.
 * A lock left behind by a dead process is taken over.
 * @param {string} lockPath directory used as the lock
 * @param {{ timeoutMs?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<() => void>} release function (idempotent)
 * @throws {Error} when the lock is still held by a live process after `timeoutMs`
 */
export async function acquireLock(lockPath, options = {}) {
	const timeoutMs = options.timeoutMs ?? 30 * 60_000;
	const deadline = Date.now() + timeoutMs;
	let announced = false;
	// On a fresh machine the cache folder may not exist yet (the first provisioning step to
	// run creates it): the lock's parent is made here, not assumed.
	mkdirSync(dirname(lockPath), { recursive: true });
	for (;;) {
		try {
			mkdirSync(lockPath);
			writeFileSync(join(lockPath, 'owner'), String(process.pid));
			let released = false;
			const release = () => {
				if (released) return;
				released = true;
				rmSync(lockPath, { recursive: true, force: true });
			};
			process.once('exit', release);
			return release;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
		}
		let owner = Number.NaN;
		try {
			owner = Number(readFileSync(join(lockPath, 'owner'), 'utf8'));
		} catch {
			// The owner file is written right after mkdir; give it a moment.
		}
		if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
			rmSync(lockPath, { recursive: true, force: true });
			continue;
		}
		if (Date.now() > deadline) {
			throw new Error(`Lock ${lockPath} still held by process ${owner} after ${timeoutMs} ms`);
		}
		if (!announced) {
			options.log?.(`waiting for lock ${lockPath} (held by process ${owner})`);
			announced = true;
		}
		await sleep(1000);
	}
}
