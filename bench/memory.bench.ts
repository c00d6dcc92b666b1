/**
 * The cost of memory per agent turn, and the stores' size under 10,000 sessions.
 *
 * Per turn: one turn of n8n's AI Agent (fixtures/workflows/memory-chat-agent.json) against the
 * loopback fake model, in one opened session, four ways in one run:
 * - anchor: the same agent with its Simple Memory disconnected (no memory, no session);
 * - in-process: Simple Memory with a session id, the conversation in this process's store;
 * - redis: the same, `--store redis://…` (a throw-away redis-server on loopback);
 * - postgres: the same, `--store postgres://…` (a throw-away Postgres on loopback, fsync off).
 * Each session first holds 10 turns (the window is 10), so every measured turn loads a full
 * window and saves one more. Rounds rotate the contenders; a ratio is the median of the
 * per-round ratios against the anchor measured in the same round (middle half beside it).
 *
 * Size: 10,000 sessions of a 6-message conversation (~1 KB) written to each store with its
 * default bound (10,000 values), then 2,000 more: what each keeps (values, bytes) afterwards.
 * Timings are printed, never asserted.
 *
 *   npm run bench:memory [-- --rounds 15 --turns 20]
 */
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
	inProcessConversationStore,
	openWorkflowSession,
	runSessionAgent,
	type ConversationStore,
	type WorkflowExport,
} from '../src/index';
import { openConversationStore } from '../packages/n8n-toolbridge/src/store/open-conversation-store';
import { startFakeChatServer, textReply } from '../test/support/fake-chat-server';
import { argument } from './support/loop-fixtures';
import { ratioSummary } from './support/stats';

const rounds = argument('rounds', 15);
const turns = argument('turns', 20);
const sessions = argument('sessions', 10_000);
const repo = resolve(__dirname, '..');
const AGENT = 'Chat Agent';

/** A throw-away server of the e2e helpers (plain JS, typed by JSDoc there). */
interface Service {
	port: number;
	start(): Promise<void>;
	stop(): Promise<unknown>;
}

/** The e2e helpers' throw-away Redis and Postgres (redis-server, Postgres: apt-get when missing). */
async function throwawayServers(): Promise<{ redis: Service; postgres: Service }> {
	const lib = '../test/e2e/lib/';
	const { ensureServerPrograms } = (await import(`${lib}system-packages.mjs`)) as {
		ensureServerPrograms(options: object): Promise<{ redisServer: string; postgresBinDir: string }>;
	};
	const { RedisServer } = (await import(`${lib}redis.mjs`)) as {
		RedisServer: new (options: object) => Service;
	};
	const { PostgresServer } = (await import(`${lib}postgres.mjs`)) as {
		PostgresServer: new (options: object) => Service;
	};
	const programs = await ensureServerPrograms({ log: () => {} });
	return {
		redis: new RedisServer({ redisServer: programs.redisServer }),
		postgres: new PostgresServer({ binDir: programs.postgresBinDir, n8nDir: repo, name: 'bench' }),
	};
}

async function main(): Promise<void> {
	const { redis, postgres } = await throwawayServers();
	await Promise.all([redis.start(), postgres.start()]);
	const redisUrl = `redis://127.0.0.1:${redis.port}`;
	const postgresUrl = `postgres://postgres@127.0.0.1:${postgres.port}/postgres`;
	const model = await startFakeChatServer({ respond: () => textReply('Noted, thanks.') });
	const withMemory = JSON.parse(
		readFileSync(join(repo, 'fixtures/workflows/memory-chat-agent.json'), 'utf8'),
	) as WorkflowExport;
	const withoutMemory: WorkflowExport = {
		...withMemory,
		id: 'memory-chat-agent-without-memory',
		nodes: withMemory.nodes.filter((node) => node.name !== 'Simple Memory'),
		connections: { ...withMemory.connections, 'Simple Memory': {} },
	};
	const connection = { baseUrl: model.baseUrl, apiKey: 'sk-bench', model: 'fake/bench', env: {} };
	const stores: Record<string, ConversationStore> = {
		'in-process': inProcessConversationStore(),
		redis: await openConversationStore(redisUrl),
		postgres: await openConversationStore(postgresUrl),
	};
	const contenders: Record<string, () => Promise<() => Promise<void>>> = {
		anchor: async () => {
			const session = await openWorkflowSession(withoutMemory, { ...connection, loadTools: false });
			return async () => void (await runSessionAgent(session, { agent: AGENT, prompt: 'Hello' }));
		},
	};
	for (const [name, store] of Object.entries(stores))
		contenders[name] = async () => {
			const session = await openWorkflowSession(withMemory, {
				...connection,
				loadTools: false,
				conversationStore: store,
			});
			const sessionId = `bench-${name}`;
			const turn = async () =>
				void (await runSessionAgent(session, { agent: AGENT, prompt: 'Hello', sessionId }));
			for (let index = 0; index < 10; index++) await turn(); // a full window first
			return turn;
		};
	const runners: Record<string, () => Promise<void>> = {};
	for (const [name, open] of Object.entries(contenders)) {
		runners[name] = await open();
		for (let index = 0; index < 5; index++) await runners[name]();
	}
	const names = Object.keys(runners);
	const perRound: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
	for (let round = 0; round < rounds; round++)
		for (let offset = 0; offset < names.length; offset++) {
			const name = names[(round + offset) % names.length];
			const started = performance.now();
			for (let index = 0; index < turns; index++) await runners[name]();
			perRound[name].push((performance.now() - started) / turns);
		}
	console.log(
		`memory per turn (${rounds} rounds × ${turns} turns, window of 10 turns loaded each turn)`,
	);
	for (const name of names) {
		const ms = perRound[name].sort((a, b) => a - b)[Math.floor(rounds / 2)];
		const ratios = perRound[name].map((value, round) => value / perRound.anchor[round]);
		console.log(
			`  ${name.padEnd(11)} ${ms.toFixed(2)} ms per turn${name === 'anchor' ? ' (no memory: the anchor)' : `, ${ratioSummary(ratios)} the anchor`}`,
		);
	}

	console.log(`store size, ${sessions} sessions of a 6-message conversation, then 20% more:`);
	const messages = Array.from({ length: 6 }, (_, index) => ({
		role: index % 2 ? 'assistant' : 'user',
		content: `message ${index} of a conversation, about as long as a short chat turn is.`.repeat(2),
	}));
	// A string of its own per session (one shared string would be counted once).
	const conversationOf = (session: number) => JSON.stringify({ session, messages });
	const conversation = conversationOf(0);
	const heapBefore = usedHeap();
	const inProcess = inProcessConversationStore();
	const folder = mkdtempSync(join(tmpdir(), 'toolbridge-bench-store-'));
	const sized: Record<string, ConversationStore> = {
		'in-process': inProcess,
		file: await openConversationStore(folder),
		redis: stores.redis,
		postgres: await openConversationStore(postgresUrl, { sweepEveryMs: 1000 }),
	};
	for (const [name, store] of Object.entries(sized)) {
		const started = performance.now();
		for (let index = 0; index < sessions * 1.2; index++)
			await store.set(`size-${index}`, conversationOf(index));
		const perSet = (performance.now() - started) / (sessions * 1.2);
		if (name === 'postgres') await new Promise((done) => setTimeout(done, 1500)); // one sweep
		if (name === 'file') {
			// A process that sweeps at once (the writer sweeps at most every minute).
			const sweeper = await openConversationStore(folder, { sweepEveryMs: 0 });
			await sweeper.set('size-last', conversation);
			await sweeper.close?.();
		}
		const size = await sizeOf(name, { heapBefore, folder, redisUrl, postgresUrl });
		console.log(`  ${name.padEnd(11)} ${size}; ${perSet.toFixed(3)} ms per write`);
	}
	console.log(`  (one value: ${conversation.length} characters)`);
	for (const store of Object.values({ ...stores, ...sized })) await store.close?.();
	await model.close();
	await Promise.all([redis.stop(), postgres.stop()]);
}

function usedHeap(): number {
	globalThis.gc?.();
	return process.memoryUsage().heapUsed;
}

async function sizeOf(
	name: string,
	where: { heapBefore: number; folder: string; redisUrl: string; postgresUrl: string },
): Promise<string> {
	const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
	if (name === 'in-process')
		return `heap +${mib(usedHeap() - where.heapBefore)} (bound: 10,000 values)`;
	if (name === 'file') {
		const files = readdirSync(join(where.folder, 'values')).filter((file) =>
			file.endsWith('.json'),
		);
		const bytes = files.reduce(
			(sum, file) => sum + statSync(join(where.folder, 'values', file)).size,
			0,
		);
		return `${files.length} values, ${mib(bytes)} on disk`;
	}
	if (name === 'redis') {
		const { createClient } = await import('redis');
		const client = createClient({ url: where.redisUrl });
		await client.connect();
		const keys = await client.dbSize();
		const memory = /used_memory:(\d+)/.exec(await client.info('memory'))?.[1];
		await client.quit();
		return `${keys} keys, used_memory ${mib(Number(memory))} (no count bound: TTL and maxmemory)`;
	}
	const pg = (await import('pg')).default;
	const client = new pg.Client({ connectionString: where.postgresUrl });
	await client.connect();
	const rows = await client.query(
		"SELECT count(*)::int AS values, pg_total_relation_size('toolbridge_conversations') AS bytes FROM toolbridge_conversations",
	);
	await client.end();
	const { values, bytes } = rows.rows[0] as { values: number; bytes: string };
	return `${values} rows, table ${mib(Number(bytes))}`;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
