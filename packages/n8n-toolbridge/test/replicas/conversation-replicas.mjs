// @ts-check
/**
 * The conversations half of `npm run test:replicas`: three `toolbridge serve` replicas of
 * fixtures/workflows/memory-chat-agent.json (n8n's AI Agent with Simple Memory) sharing
 * `--store redis://…` (a throw-away redis-server on loopback), behind the round-robin proxy.
 * 30 conversations × 3 turns on each API through the official `openai` client — Chat
 * Completions with an `x-session-id` (the client resends its history; the session's memory
 * wins), Responses with `previous_response_id` — turn by turn, so each turn of a conversation
 * lands on another replica. Replica #2 is killed (SIGKILL) in the middle of turn 2. Every
 * turn 3 must reach the model holding its turns 1–2, once each (checked on what the fake
 * model received); 0 failed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { RedisServer } from '../../../../test/e2e/lib/redis.mjs';
import { ensureServerPrograms } from '../../../../test/e2e/lib/system-packages.mjs';
import { startFakeModel } from './fake-model.mjs';
import { startRoundRobinProxy } from './round-robin-proxy.mjs';

const CONVERSATIONS = 30;
const AGENT = 'Chat Agent';

/**
 * @param {{ repo: string, bin: string }} paths
 * @returns {Promise<number>} how many checks failed
 */
export async function runConversationReplicas({ repo, bin }) {
	const { redisServer } = await ensureServerPrograms({ log: (line) => console.log(line) });
	const redis = new RedisServer({ redisServer });
	await redis.start();
	const store = `redis://127.0.0.1:${redis.port}`;
	const model = await startFakeModel();
	const workflow = join(repo, 'fixtures/workflows/memory-chat-agent.json');
	const startReplica = () => {
		const child = spawn(
			process.execPath,
			[
				bin,
				'serve',
				workflow,
				'--port',
				'0',
				'--store',
				store,
				'--base-url',
				model.baseUrl,
				'--model',
				'fake/chat',
				'--api-key',
				'sk-replicas',
			],
			{
				cwd: repo,
				env: {
					PATH: process.env.PATH ?? '',
					HOME: mkdtempSync(join(tmpdir(), 'toolbridge-replica-')),
				},
				stdio: ['ignore', 'ignore', 'pipe'],
			},
		);
		let stderr = '';
		return /** @type {Promise<{ child: import('node:child_process').ChildProcess, port: number, served: number, stderr: () => string }>} */ (
			new Promise((resolvePromise, reject) => {
				child.stderr?.on('data', (data) => {
					stderr += data;
					const match = /at http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(stderr);
					if (match)
						resolvePromise({ child, port: Number(match[1]), served: 0, stderr: () => stderr });
				});
				child.once('exit', (code) => reject(new Error(`serve replica exited ${code}:\n${stderr}`)));
			})
		);
	};
	const started = performance.now();
	const replicas = await Promise.all([startReplica(), startReplica(), startReplica()]);
	console.log(
		`3 serve replicas (--store redis) ready in ${Math.round(performance.now() - started)} ms`,
	);
	const proxy = await startRoundRobinProxy(replicas);
	const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'unused', maxRetries: 0 });

	/** @type {string[]} */
	const failures = [];
	/** @type {Map<string, Array<{ role: 'user' | 'assistant', content: string }>>} */
	const chats = new Map();
	/** @type {Map<string, string>} */
	const lastResponse = new Map();
	const say = (
		/** @type {string} */ api,
		/** @type {number} */ conversation,
		/** @type {number} */ turn,
	) => `${api} conversation ${conversation} turn ${turn}`;

	async function chatTurn(/** @type {number} */ conversation, /** @type {number} */ turn) {
		const session = `chat-${conversation}`;
		const history = chats.get(session) ?? [];
		const text = say('chat', conversation, turn);
		const answer = await client.chat.completions.create(
			{ model: AGENT, messages: [...history, { role: 'user', content: text }] },
			{ headers: { 'x-session-id': session } },
		);
		const content = answer.choices[0]?.message.content ?? '';
		if (content !== `answer to "${text}"`) throw new Error(`answered ${JSON.stringify(content)}`);
		chats.set(session, [
			...history,
			{ role: 'user', content: text },
			{ role: 'assistant', content },
		]);
	}

	async function responsesTurn(/** @type {number} */ conversation, /** @type {number} */ turn) {
		const text = say('responses', conversation, turn);
		const previous = lastResponse.get(`responses-${conversation}`);
		const answer = await client.responses.create({
			model: AGENT,
			input: text,
			...(previous ? { previous_response_id: previous } : {}),
		});
		if (answer.output_text !== `answer to "${text}"`)
			throw new Error(`answered ${JSON.stringify(answer.output_text)}`);
		lastResponse.set(`responses-${conversation}`, answer.id);
	}

	let ok = 0;
	for (let turn = 1; turn <= 3; turn++) {
		for (let conversation = 1; conversation <= CONVERSATIONS; conversation++) {
			if (turn === 2 && conversation === CONVERSATIONS / 2 + 1) {
				const exited = new Promise((resolvePromise) =>
					replicas[1].child.once('exit', resolvePromise),
				);
				replicas[1].child.kill('SIGKILL');
				await exited;
				console.log(`replica #2 killed before turn 2 of conversation ${conversation}`);
			}
			for (const [api, turnOf] of /** @type {const} */ ([
				['chat', chatTurn],
				['responses', responsesTurn],
			])) {
				try {
					await turnOf(conversation, turn);
					ok++;
				} catch (error) {
					failures.push(`${say(api, conversation, turn)}: ${/** @type {Error} */ (error).message}`);
				}
			}
		}
	}

	// What each turn 3 sent the model: its turns 1–2 (questions and answers), once each.
	let remembered = 0;
	for (let conversation = 1; conversation <= CONVERSATIONS; conversation++)
		for (const api of ['chat', 'responses']) {
			const third = say(api, conversation, 3);
			const request = model.requests.find((messages) => messages.at(-1)?.content === third);
			const texts = (request ?? []).map((message) => message.content);
			const expected = [1, 2].flatMap((turn) => [
				say(api, conversation, turn),
				`answer to "${say(api, conversation, turn)}"`,
			]);
			const counts = expected.map((text) => texts.filter((each) => each === text).length);
			if (request && counts.every((count) => count === 1)) remembered++;
			else
				failures.push(
					`${third}: the model received ${request ? JSON.stringify(texts).slice(0, 300) : 'no request'} (turns 1–2 seen ${counts.join(',')} times)`,
				);
		}

	console.log(
		`conversations: ${ok}/${CONVERSATIONS * 3 * 2} turns answered; ${remembered}/${CONVERSATIONS * 2} third turns held their turns 1–2 (chat x-session-id + Simple Memory, responses previous_response_id)`,
	);
	console.log(
		`serve requests answered per replica: ${replicas.map((replica) => replica.served).join(', ')} (#2 killed mid-turn 2)`,
	);
	if (failures.length) console.log(`  failures:\n  ${failures.slice(0, 20).join('\n  ')}`);
	for (const replica of replicas) replica.child.kill();
	proxy.close();
	model.close();
	await redis.stop();
	return failures.length;
}
