// @ts-check
/**
 * Memory and streaming when executions run on workers.
 *
 * - memory: two webhook turns of one session, turn 1 on one worker and turn 2 on the other
 *   (the first worker is stopped before turn 2). With n8n's Postgres Chat Memory the second
 *   turn's request carries turn 1 as real messages (assistant tool call, tool result, answer);
 *   n8n's Simple Memory keeps its buffer inside the process, so on the other worker turn 2
 *   starts with no history — checked too, as the reason the README says to use a shared memory.
 * - streaming: a `responseMode: streaming` webhook whose execution runs on a worker. The worker
 *   sends each chunk to main as Bull job progress (`send-chunk`, job-processor.js) and main
 *   writes it to the HTTP response; the first text chunk must reach the client while the fake
 *   still holds the model's final answer back.
 */
import { checkRequest, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import { postStreaming } from '../lib/ndjson.mjs';
import { assertHashToolSchema, EXPECTED, hashTextTool, TOOL_INPUT } from '../lib/tool-fixtures.mjs';
import { connections, node, workflow } from '../lib/workflows.mjs';
import {
	deployScenarioWorkflow,
	fakeCredential,
	messagesOf,
	orchestratorNode,
	rolesOf,
	textOf,
	toolCallsOf,
	webhookNode,
	workflowIdFor,
} from './common.mjs';

const MODEL = 'fake/queue-memory';
const FIRST_TURN = `Please hash this exact text: ${TOOL_INPUT.text}`;
const SECOND_TURN = 'Which tool did you use, and on which text?';

/**
 * The digest in the Hash_Text result of a request.
 * @param {any} body
 * @returns {string}
 */
function digestOf(body) {
	const digest = /[0-9a-f]{64}/.exec(toolMessages(body).at(-1)?.content ?? '')?.[0];
	if (!digest)
		throw new Error(
			`no Hash_Text result with a digest: ${JSON.stringify(messagesOf(body)).slice(0, 600)}`,
		);
	return digest;
}

/**
 * The scripted memory model. Turn 2's request is recorded for the scenario to judge.
 * @param {{ secondTurn: Record<string, any> }} seen keyed by session
 * @returns {(request: any, fake: any) => any}
 */
function memoryModel(seen) {
	return (request, fake) => {
		checkRequest(request, MODEL);
		const body = request.body;
		assertHashToolSchema(body);
		const last = messagesOf(body).at(-1);
		if (last?.role === 'tool')
			return matchStreaming(
				request,
				fake.textReply(`Digest: ${digestOf(body)}.`, { model: MODEL }),
			);
		if (textOf(last) === FIRST_TURN)
			return matchStreaming(
				request,
				fake.toolCallReply(
					[{ id: 'call_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
					{ model: MODEL },
				),
			);
		if (textOf(last) === SECOND_TURN) {
			const session =
				/session ([\w-]+)/.exec(
					body.messages.find((/** @type {any} */ message) => message.role === 'system')?.content ??
						'',
				)?.[1] ?? 'unknown';
			seen.secondTurn[session] = body;
			return matchStreaming(request, fake.textReply('I used Hash_Text.', { model: MODEL }));
		}
		throw new Error(`unexpected request: ${JSON.stringify(messagesOf(body)).slice(0, 500)}`);
	};
}

/**
 * Check turn 2's request: turn 1 as real messages, then the new question.
 * @param {any} body
 * @returns {void}
 * @throws {Error} naming what is missing
 */
function assertFirstTurnReplayed(body) {
	const roles = rolesOf(body);
	if (roles !== 'user,assistant,tool,assistant,user')
		throw new Error(`turn 2 messages are ${roles}, expected user,assistant,tool,assistant,user`);
	const messages = messagesOf(body).filter(
		(/** @type {any} */ message) => message.role !== 'system',
	);
	if (messages.some((/** @type {any} */ message) => /\[Used tools/i.test(textOf(message))))
		throw new Error("the history holds a '[Used tools' summary");
	const [call, ...others] = toolCallsOf(messages[1]);
	if (
		!call ||
		others.length > 0 ||
		call.id !== 'call_hash' ||
		call.name !== 'Hash_Text' ||
		call.arguments?.text !== TOOL_INPUT.text
	) {
		throw new Error(
			`turn 1's tool call is not replayed: ${JSON.stringify(messages[1]).slice(0, 400)}`,
		);
	}
	if (messages[2].tool_call_id !== 'call_hash' || !textOf(messages[2]).includes(EXPECTED.sha256))
		throw new Error('turn 1 tool result not replayed with the digest');
	if (!textOf(messages[3]).includes(EXPECTED.sha256))
		throw new Error(`turn 1's answer not replayed: ${textOf(messages[3])}`);
}

/**
 * Memory across two workers: Postgres Chat Memory keeps the session, Simple Memory does not.
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueMemoryAcrossWorkers(scope) {
	const topology = scope.topology;
	const main = topology.mainProcess;
	/** @type {{ secondTurn: Record<string, any> }} */
	const seen = { secondTurn: {} };
	const fake = await scope.startFake(memoryModel(seen));
	const credential = await fakeCredential(scope, fake.baseUrl);
	await topology.postgres.createDatabase('chat_memory');
	const postgresCredential = await topology.createCredential({
		name: `E2E Postgres ${scope.id}`,
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port: topology.postgres.port,
			database: 'chat_memory',
			user: 'postgres',
			password: '',
			ssl: 'disable',
			allowUnauthorizedCerts: false,
			sshTunnel: false,
		},
	});
	const memories = {
		postgres: node(
			'Chat Memory',
			'@n8n/n8n-nodes-langchain.memoryPostgresChat',
			1.3,
			{
				sessionIdType: 'customKey',
				sessionKey: '={{ $json.body.sessionId }}',
				tableName: 'toolbridge_chat',
				contextWindowLength: 10,
			},
			{ postgres: postgresCredential },
		),
		simple: node('Chat Memory', '@n8n/n8n-nodes-langchain.memoryBufferWindow', 1.3, {
			sessionIdType: 'customKey',
			sessionKey: '={{ $json.body.sessionId }}',
			contextWindowLength: 10,
		}),
	};
	/** @type {Record<string, string>} */
	const workflowIds = {};
	for (const [kind, memory] of Object.entries(memories)) {
		workflowIds[kind] = await topology.deployWorkflow(
			workflow({
				id: workflowIdFor(scope, kind),
				name: `E2E ${scope.id} ${kind}`,
				nodes: [
					webhookNode(`tb-memory-${kind}`, 'lastNode'),
					orchestratorNode(credential, MODEL, {
						systemMessage: '=You are in session {{ $json.body.sessionId }}.',
					}),
					memory,
					hashTextTool(),
				],
				connections: connections([
					['Webhook', 'Agent Orchestrator'],
					['Chat Memory', 'Agent Orchestrator', 'ai_memory'],
					['Hash Text', 'Agent Orchestrator', 'ai_tool'],
				]),
			}),
		);
	}
	const [first, second] = topology.workers;
	// Turn 1 of both sessions on the first worker only, turn 2 on the second only.
	await second.stop();
	const sessions = {
		postgres: `pg-${Date.now().toString(36)}`,
		simple: `simple-${Date.now().toString(36)}`,
	};
	for (const kind of /** @type {const} */ (['postgres', 'simple'])) {
		const answer = await main.postJson(`tb-memory-${kind}`, {
			sessionId: sessions[kind],
			message: FIRST_TURN,
		});
		if (!String(answer?.output).includes(EXPECTED.sha256))
			throw new Error(
				`${kind} turn 1 answer lacks the digest: ${JSON.stringify(answer).slice(0, 300)}`,
			);
	}
	await second.start();
	await first.stop();
	for (const kind of /** @type {const} */ (['postgres', 'simple'])) {
		await main.postJson(`tb-memory-${kind}`, { sessionId: sessions[kind], message: SECOND_TURN });
	}
	fake.assertNoFailures();
	/** @type {string[]} */
	const placement = [];
	for (const kind of /** @type {const} */ (['postgres', 'simple'])) {
		const executions = await topology.executionsOf(workflowIds[kind]);
		if (executions.length !== 2 || executions.some((execution) => execution.status !== 'success'))
			throw new Error(`${kind} executions: ${JSON.stringify(executions)}`);
		const workers = executions.map((execution) =>
			topology
				.jobsOf(execution.id)
				.map((job) => job.worker)
				.join('+'),
		);
		if (workers[0] !== first.name || workers[1] !== second.name)
			throw new Error(
				`${kind}: turns ran on ${workers.join(', ')}, expected ${first.name}, ${second.name}`,
			);
		placement.push(
			`${kind}: turn 1 execution ${executions[0].id} on ${workers[0]}, turn 2 execution ${executions[1].id} on ${workers[1]}`,
		);
	}
	const postgresTurn = seen.secondTurn[sessions.postgres];
	const simpleTurn = seen.secondTurn[sessions.simple];
	if (!postgresTurn || !simpleTurn)
		throw new Error(`turn 2 requests missing: ${Object.keys(seen.secondTurn).join(', ')}`);
	assertFirstTurnReplayed(postgresTurn);
	const stored = await topology.postgres.query(
		'SELECT count(*)::int AS rows FROM toolbridge_chat WHERE session_id = $1',
		[sessions.postgres],
		'chat_memory',
	);
	if (rolesOf(simpleTurn) !== 'user')
		throw new Error(
			`Simple Memory on another worker was expected to start empty (it is per-process), but turn 2 carried ${rolesOf(simpleTurn)}`,
		);
	scope.note(placement.join('; '));
	scope.note(
		`Postgres Chat Memory: turn 2 on the other worker replayed user, assistant(tool_calls), tool, assistant; ${stored[0].rows} rows in toolbridge_chat; ` +
			`Simple Memory: turn 2 on the other worker saw only '${rolesOf(simpleTurn)}' (its buffer stayed in the first worker's process)`,
	);
}

/**
 * Streaming webhook response from an execution on a worker.
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueStreaming(scope) {
	const topology = scope.topology;
	const preamble = 'Hashing the text now. ';
	/** @type {() => void} */
	let openGate = () => {};
	const gate = new Promise((resolve) => {
		openGate = () => resolve(true);
	});
	let finalAnswerSent = false;
	const fake = await scope.startFake(async (request, fakeModule) => {
		checkRequest(request, 'fake/queue-stream');
		const body = request.body;
		if (body?.stream !== true)
			throw new Error('the orchestrator did not ask the model for a stream');
		if (messagesOf(body).at(-1)?.role !== 'tool') {
			return fakeModule.toolCallReply(
				[{ id: 'call_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
				{ text: preamble, model: 'fake/queue-stream' },
			);
		}
		const opened = await Promise.race([
			gate,
			new Promise((resolve) => setTimeout(() => resolve(false), 60_000)),
		]);
		if (!opened)
			throw new Error(
				'the client saw no text chunk within 60 s while the final answer was held back',
			);
		finalAnswerSent = true;
		return fakeModule.textReply(`Digest: ${digestOf(body)}.`, { model: 'fake/queue-stream' });
	});
	const workflowId = await deployScenarioWorkflow(scope, fake, (credential) => ({
		nodes: [
			webhookNode('tb-queue-stream', 'streaming'),
			orchestratorNode(credential, 'fake/queue-stream'),
			hashTextTool(),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Hash Text', 'Agent Orchestrator', 'ai_tool'],
		]),
	}));
	const started = Date.now();
	/** @type {boolean | undefined} */
	let firstTextBeforeFinal;
	let firstTextMs = 0;
	const { chunks, ended, error } = await postStreaming(
		topology.mainProcess,
		'tb-queue-stream',
		{ message: FIRST_TURN },
		() => {
			firstTextBeforeFinal = !finalAnswerSent;
			firstTextMs = Date.now() - started;
			openGate();
		},
	);
	const totalMs = Date.now() - started;
	fake.assertNoFailures();
	const types = [...new Set(chunks.map((chunk) => chunk.type))].join(',');
	const text = chunks
		.filter((chunk) => chunk.type === 'item')
		.map((chunk) => chunk.content ?? '')
		.join('');
	if (ended !== 'end') throw new Error(`the streamed response broke off: ${error}`);
	if (firstTextBeforeFinal !== true)
		throw new Error(
			`no text chunk reached the client before the final answer was sent (chunk types: ${types || 'none'}; body: ${JSON.stringify(chunks).slice(0, 300)})`,
		);
	if (!text.startsWith(preamble) || !text.includes(EXPECTED.sha256))
		throw new Error(`streamed text: ${text.slice(0, 300)}`);
	if (chunks[0]?.type !== 'begin' || chunks.at(-1)?.type !== 'end')
		throw new Error(`the stream is not begin … end: ${types}`);
	const [execution] = await topology.executionsOf(workflowId);
	const jobs = topology.jobsOf(execution.id);
	if (jobs.length !== 1)
		throw new Error(`expected one worker job, logs show ${JSON.stringify(jobs)}`);
	await topology.waitForExecution(execution.id, { statuses: ['success'], timeoutMs: 30_000 });
	scope.note(
		`execution ${execution.id} ran on ${jobs[0].worker}; main relayed ${chunks.length} NDJSON chunks (${types}); first text at ${(firstTextMs / 1000).toFixed(2)} s, before the final answer left the fake; stream ended at ${(totalMs / 1000).toFixed(2)} s`,
	);
}
