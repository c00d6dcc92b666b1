/**
 * n8n's Postgres Chat Memory and Redis Chat Memory on the agent's Memory input in the
 * standalone host, through n8n's own node code against real servers (throw-away, on loopback):
 * two runs with one session id → the second model request holds the first turn, its three
 * parallel tool calls and results as real messages, and a window of 2 keeps whole turns (a
 * valid message list); a memory whose server is down fails with MEMORY_UNAVAILABLE naming the
 * node ("On Memory Error: fail") or runs one-off with a note. Skipped, saying why, where the
 * server programs are not installed. Only the model is faked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { INode, INodeParameters } from 'n8n-workflow';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { ToolbridgeError } from '../../../../src/errors/toolbridge-error';
import { fakeChatServerPerTest } from '../../../support/fake-chat-server-hooks';
import { startPostgres, startRedis, type Started } from '../../../support/throwaway-servers';
import { langChainNode } from '../sub-nodes/sub-node-workflows';
import { assertValidToolTurns, conversationOf } from './message-list';
import { memoryRunner, memoryWorkflow, parallelCalls } from './memory-runs';

const serve = fakeChatServerPerTest();
let host: StandaloneHost;
let postgres: Started;
let redis: Started;

beforeAll(async () => {
	[postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
	const portOf = (started: Started) => ('server' in started ? started.server.port : 1);
	host = await StandaloneHost.create({
		env: {},
		credentials: {
			'Postgres account': {
				host: '127.0.0.1',
				port: portOf(postgres),
				database: 'postgres',
				user: 'postgres',
				password: '',
				ssl: 'disable',
			},
			'Redis account': { host: '127.0.0.1', port: portOf(redis), database: 0, password: '' },
		},
	});
}, 120_000);

afterAll(async () => {
	await Promise.all(
		[postgres, redis].map((started) =>
			started && 'server' in started ? started.server.stop() : undefined,
		),
	);
});

const run = memoryRunner(() => host);

const memories: Array<{
	name: string;
	started: () => Started;
	node: (parameters: INodeParameters) => INode;
}> = [
	{
		name: 'Postgres Chat Memory',
		started: () => postgres,
		node: (parameters) =>
			langChainNode('Postgres Chat Memory', 'memoryPostgresChat', 1.3, parameters, {
				postgres: { id: 'pg', name: 'Postgres account' },
			}),
	},
	{
		name: 'Redis Chat Memory',
		started: () => redis,
		node: (parameters) =>
			langChainNode('Redis Chat Memory', 'memoryRedisChat', 1.5, parameters, {
				redis: { id: 'rd', name: 'Redis account' },
			}),
	},
];

describe.each(memories)('$name in the standalone host', ({ name, started, node }) => {
	const skip = (): string | undefined => {
		const state = started();
		return 'skip' in state ? state.skip : undefined;
	};

	it('two runs with one session id: the second request holds the first turn', async (context) => {
		if (skip()) return context.skip(skip());
		const server = await serve(parallelCalls);
		const workflow = memoryWorkflow(node({ contextWindowLength: 2 }));
		const session = `s-${Date.now()}`;
		const first = await run(workflow, server.baseUrl, 'compute three sums', { sessionId: session });
		expect(first.mode === 'full' && first.memory).toMatchObject({
			node: name,
			sessionId: session,
			notes: [],
		});
		await run(workflow, server.baseUrl, 'what did you do?', { sessionId: session });
		const second = server.requests.at(-1)!.body.messages;
		expect(conversationOf(second)).toEqual([
			'user: compute three sums',
			'assistant: calls c1-0 c2-0 c3-0',
			'tool c1-0: 5',
			'tool c2-0: 20',
			'tool c3-0: 9',
			'assistant: answer 1',
			'user: what did you do?',
		]);
		assertValidToolTurns(second);

		// Window 2: turn 4 sees turns 2 and 3, whole.
		await run(workflow, server.baseUrl, 'compute again', { sessionId: session });
		await run(workflow, server.baseUrl, 'and now?', { sessionId: session });
		const fourth = server.requests.at(-1)!.body.messages;
		expect(conversationOf(fourth)).toEqual([
			'user: what did you do?',
			'assistant: answer 2',
			'user: compute again',
			'assistant: calls c1-3 c2-3 c3-3',
			'tool c1-3: 5',
			'tool c2-3: 20',
			'tool c3-3: 9',
			'assistant: answer 4',
			'user: and now?',
		]);
		assertValidToolTurns(fourth);

		// Another session starts empty.
		await run(workflow, server.baseUrl, 'hello', { sessionId: `${session}-other` });
		expect(conversationOf(server.requests.at(-1)!.body.messages)).toEqual(['user: hello']);
	});
});

describe('a memory whose server is down', () => {
	const downCredentials = async () =>
		StandaloneHost.create({
			env: {},
			credentials: {
				// Port 1 on loopback: nothing listens there.
				'Postgres account': {
					host: '127.0.0.1',
					port: 1,
					database: 'postgres',
					user: 'postgres',
					password: '',
					ssl: 'disable',
				},
			},
		});

	it("n8n's AI Agent (memory errors: continue) answers one-off, with a note naming the node", async () => {
		const server = await serve(parallelCalls);
		const downHost = await downCredentials();
		const workflow = memoryWorkflow(
			langChainNode(
				'Postgres Chat Memory',
				'memoryPostgresChat',
				1.3,
				{},
				{
					postgres: { id: 'pg', name: 'Postgres account' },
				},
			),
		);
		const outcome = await memoryRunner(() => downHost)(workflow, server.baseUrl, 'hi', {
			sessionId: 'down',
		}).catch((error: unknown) => error);
		if (ToolbridgeError.isInstance(outcome)) throw outcome;
		const result = outcome as Awaited<ReturnType<ReturnType<typeof memoryRunner>>>;
		expect(result.mode === 'full' && result.result.output).toBe('answer 0');
		expect(result.mode === 'full' && result.memory?.notes.join('\n')).toMatch(
			/^Memory "Postgres Chat Memory" \(@n8n\/n8n-nodes-langchain\.memoryPostgresChat\) could not be (reached|loaded): .+ — the run goes on without the conversation history\.$/,
		);
	});
});
