/**
 * Every `--store` backend keeps the one ConversationStore contract: values round-trip, expire
 * after their TTL, a value past the size bound is not kept, and a lock is held by one taker at
 * a time until released or lapsed. The file store against a temp folder (and a second
 * process), Redis against a throw-away redis-server, Postgres against PGlite's Postgres wire
 * server on loopback.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationStore } from 'n8n-nodes-toolbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConversationStore } from '../../src/store/open-conversation-store';
import {
	redisInstalled,
	startThrowawayRedis,
	type ThrowawayRedis,
} from '../support/throwaway-redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const limits = { ttlMs: 60_000, maxValueChars: 1000, maxEntries: 5, sweepEveryMs: 0 };

function theContract(open: () => Promise<ConversationStore>): void {
	let store: ConversationStore;
	beforeAll(async () => {
		store = await open();
	});
	afterAll(async () => store?.close?.());

	it('get/set/delete round-trip a value; unknown keys are undefined', async () => {
		expect(await store.get('nope')).toBeUndefined();
		await store.set('a', '{"messages":["é"]}');
		expect(await store.get('a')).toBe('{"messages":["é"]}');
		await store.set('a', 'second');
		expect(await store.get('a')).toBe('second');
		await store.delete('a');
		expect(await store.get('a')).toBeUndefined();
	});

	it('a value expires after its TTL', async () => {
		// Long enough to read back on a busy machine, short enough to wait out.
		await store.set('short', 'x', { ttlMs: 1500 });
		expect(await store.get('short')).toBe('x');
		await sleep(1800);
		expect(await store.get('short')).toBeUndefined();
	});

	it('a value past the size bound is not kept (and drops the older one)', async () => {
		await store.set('big', 'small');
		await store.set('big', 'x'.repeat(1001));
		expect(await store.get('big')).toBeUndefined();
	});

	it('a lock is one taker at a time: refused while held, free after release or lapse', async () => {
		const release = await store.lock('session', 60_000);
		expect(release).toBeTypeOf('function');
		expect(await store.lock('session', 60_000)).toBeUndefined();
		expect(await store.lock('other', 60_000)).toBeTypeOf('function');
		await release!();
		const again = await store.lock('session', 200);
		expect(again).toBeTypeOf('function');
		await sleep(400);
		const afterLapse = await store.lock('session', 60_000);
		expect(afterLapse).toBeTypeOf('function');
		// The lapsed holder's late release must not free the new holder's lock.
		await again!();
		expect(await store.lock('session', 60_000)).toBeUndefined();
		await afterLapse!();
	});

	it('of two racing takers exactly one gets the lock', async () => {
		const taken = await Promise.all(Array.from({ length: 8 }, () => store.lock('race', 60_000)));
		expect(taken.filter(Boolean)).toHaveLength(1);
		await taken.find(Boolean)!();
	});
}

describe('file store (--store PATH)', () => {
	const folder = mkdtempSync(join(tmpdir(), 'toolbridge-store-'));
	theContract(() => openConversationStore(folder, limits));

	it('the sweep deletes expired values and keeps at most maxEntries', async () => {
		const swept = mkdtempSync(join(tmpdir(), 'toolbridge-store-sweep-'));
		const store = await openConversationStore(swept, limits);
		await store.set('gone', 'x', { ttlMs: 1 });
		for (let index = 0; index < 8; index++) await store.set(`key${index}`, 'v');
		await sleep(20);
		await store.set('last', 'v');
		await store.close?.();
		const files = readdirSync(join(swept, 'values')).filter((file) => file.endsWith('.json'));
		expect(files.length).toBeLessThanOrEqual(5);
		expect(await store.get('gone')).toBeUndefined();
		expect(await store.get('last')).toBe('v');
	});

	it('two processes on one folder: a value one writes the other reads; the lock holds across them', async () => {
		const shared = mkdtempSync(join(tmpdir(), 'toolbridge-store-shared-'));
		const store = await openConversationStore(shared, limits);
		const script = `
			const { openConversationStore } = require(${JSON.stringify(join(__dirname, '../../src/store/open-conversation-store.ts'))});
			(async () => {
				const store = await openConversationStore(${JSON.stringify(shared)});
				await store.set('from-child', 'hello');
				const lock = await store.lock('held', 60000);
				console.log(JSON.stringify({ seen: await store.get('from-parent'), locked: lock === undefined }));
			})();`;
		await store.set('from-parent', 'hi');
		const release = await store.lock('held', 60_000);
		const output = await new Promise<string>((resolve, reject) => {
			const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
				env: { ...process.env, TSX_TSCONFIG_PATH: join(__dirname, '../../tsconfig.json') },
			});
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (data) => (stdout += data));
			child.stderr.on('data', (data) => (stderr += data));
			child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(stderr))));
		});
		expect(JSON.parse(output)).toEqual({ seen: 'hi', locked: true });
		expect(await store.get('from-child')).toBe('hello');
		await release!();
	}, 60_000);
});

describe.skipIf(!redisInstalled())(
	'Redis store (--store redis://…; skipped without redis-server)',
	() => {
		let redis: ThrowawayRedis;
		beforeAll(async () => {
			redis = await startThrowawayRedis();
		}, 20_000);
		afterAll(async () => redis?.stop());
		theContract(() => openConversationStore(redis.url, limits));
	},
);

describe('Postgres store (--store postgres://…, PGlite over the Postgres wire protocol)', () => {
	let stopServer: () => Promise<void>;
	let url: string;
	beforeAll(async () => {
		const { PGlite } = await import('@electric-sql/pglite');
		const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
		const database = await PGlite.create();
		const server = new PGLiteSocketServer({
			db: database,
			port: 0,
			host: '127.0.0.1',
			maxConnections: 20,
		});
		await server.start();
		const port = Number(/:(\d+)$/.exec(server.getServerConn())?.[1]);
		url = `postgres://postgres@127.0.0.1:${port}/postgres`;
		stopServer = async () => {
			await server.stop();
			await database.close();
		};
	}, 60_000);
	afterAll(async () => stopServer?.());
	theContract(() => openConversationStore(url, limits));
});

describe('openConversationStore', () => {
	it('refuses another scheme with STORE_URL_INVALID, and a Redis that does not answer with STORE_UNAVAILABLE', async () => {
		await expect(openConversationStore('mongodb://127.0.0.1/x')).rejects.toMatchObject({
			code: 'STORE_URL_INVALID',
		});
		await expect(openConversationStore('redis://:secret@127.0.0.1:1')).rejects.toMatchObject({
			code: 'STORE_UNAVAILABLE',
			message: expect.not.stringContaining('secret'),
		});
	});
});
