// @ts-check
/**
 * A memory window cutting a tool round (issue 34): the Agent Orchestrator with n8n's Postgres
 * Chat Memory, Context Window Length 2. Turn 1 makes three parallel Hash_Text calls, then
 * answers; turn 2's request must hold turn 1 whole — the user message, the assistant message
 * with its three tool calls, the three results, the answer — a message list every provider
 * accepts. LangChain's BufferWindowMemory alone gives the last 2 × 2 messages, which start at
 * a tool result (n8n #34166, #33431): the orphaned results would be dropped and turn 1 lost.
 */
import { createHash } from 'node:crypto';

import { checkRequest, matchStreaming } from '../lib/fake-model.mjs';
import { assertHashToolSchema, hashTextTool } from '../lib/tool-fixtures.mjs';
import { connections, node, workflow } from '../lib/workflows.mjs';
import {
	fakeCredential,
	messagesOf,
	orchestratorNode,
	rolesOf,
	textOf,
	toolCallsOf,
	webhookNode,
	workflowIdFor,
} from './common.mjs';

const MODEL = 'fake/queue-memory-window';
const FIRST_TURN = 'Hash alpha, beta and gamma, all three at once.';
const SECOND_TURN = 'Which digests did you get?';
const TEXTS = ['alpha', 'beta', 'gamma'];
const sha256 = (/** @type {string} */ text) =>
	createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The scripted model: three parallel calls on turn 1, an answer after the results; turn 2's
 * request is recorded.
 * @param {{ secondTurn?: any }} seen
 * @returns {(request: any, fake: any) => any}
 */
function windowModel(seen) {
	return (request, fake) => {
		checkRequest(request, MODEL);
		const body = request.body;
		assertHashToolSchema(body);
		const last = messagesOf(body).at(-1);
		if (last?.role === 'tool')
			return matchStreaming(request, fake.textReply('Hashed all three.', { model: MODEL }));
		if (textOf(last) === FIRST_TURN)
			return matchStreaming(
				request,
				fake.toolCallReply(
					TEXTS.map((text) => ({ id: `call_${text}`, name: 'Hash_Text', arguments: { text } })),
					{ model: MODEL },
				),
			);
		if (textOf(last) === SECOND_TURN) {
			seen.secondTurn = body;
			return matchStreaming(request, fake.textReply('Three digests.', { model: MODEL }));
		}
		throw new Error(`unexpected request: ${JSON.stringify(messagesOf(body)).slice(0, 500)}`);
	};
}

/**
 * Turn 2's request: turn 1 whole, every tool message right after its call, then the question.
 * @param {any} body
 * @returns {void}
 * @throws {Error} naming what is wrong
 */
function assertWholeToolTurn(body) {
	const expected = 'user,assistant,tool,tool,tool,assistant,user';
	const roles = rolesOf(body);
	if (roles !== expected) throw new Error(`turn 2 messages are ${roles}, expected ${expected}`);
	const messages = messagesOf(body).filter(
		(/** @type {any} */ message) => message.role !== 'system',
	);
	const calls = toolCallsOf(messages[1]);
	const ids = calls.map((/** @type {any} */ call) => call.id).join(',');
	if (ids !== TEXTS.map((text) => `call_${text}`).join(','))
		throw new Error(`turn 1's calls replayed as ${ids}`);
	for (const [index, text] of TEXTS.entries()) {
		const result = messages[2 + index];
		if (result.tool_call_id !== `call_${text}` || !textOf(result).includes(sha256(text)))
			throw new Error(`tool result ${index + 1} is ${JSON.stringify(result).slice(0, 300)}`);
	}
	if (textOf(messages[5]) !== 'Hashed all three.')
		throw new Error(`turn 1's answer is ${textOf(messages[5])}`);
}

/**
 * Postgres Chat Memory, window 2, after three parallel tool calls.
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueMemoryWindow(scope) {
	const topology = scope.topology;
	/** @type {{ secondTurn?: any }} */
	const seen = {};
	const fake = await scope.startFake(windowModel(seen));
	const credential = await fakeCredential(scope, fake.baseUrl);
	await topology.postgres.createDatabase('chat_window');
	const postgresCredential = await topology.createCredential({
		name: `E2E Postgres ${scope.id}`,
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port: topology.postgres.port,
			database: 'chat_window',
			user: 'postgres',
			password: '',
			ssl: 'disable',
			allowUnauthorizedCerts: false,
			sshTunnel: false,
		},
	});
	await topology.deployWorkflow(
		workflow({
			id: workflowIdFor(scope, 'window'),
			name: `E2E ${scope.id}`,
			nodes: [
				webhookNode('tb-memory-window', 'lastNode'),
				orchestratorNode(credential, MODEL),
				node(
					'Chat Memory',
					'@n8n/n8n-nodes-langchain.memoryPostgresChat',
					1.3,
					{
						sessionIdType: 'customKey',
						sessionKey: '={{ $json.body.sessionId }}',
						tableName: 'toolbridge_window',
						contextWindowLength: 2,
					},
					{ postgres: postgresCredential },
				),
				hashTextTool(),
			],
			connections: connections([
				['Webhook', 'Agent Orchestrator'],
				['Chat Memory', 'Agent Orchestrator', 'ai_memory'],
				['Hash Text', 'Agent Orchestrator', 'ai_tool'],
			]),
		}),
	);
	const sessionId = `window-${Date.now().toString(36)}`;
	const main = topology.mainProcess;
	const first = await main.postJson('tb-memory-window', { sessionId, message: FIRST_TURN });
	if (first?.output !== 'Hashed all three.')
		throw new Error(`turn 1 answered ${JSON.stringify(first).slice(0, 300)}`);
	const rowsAfterTurnOne = await topology.postgres.query(
		'SELECT count(*)::int AS rows FROM toolbridge_window WHERE session_id = $1',
		[sessionId],
		'chat_window',
	);
	await main.postJson('tb-memory-window', { sessionId, message: SECOND_TURN });
	fake.assertNoFailures();
	if (!seen.secondTurn) throw new Error('turn 2 never reached the model');
	assertWholeToolTurn(seen.secondTurn);
	scope.note(
		`Postgres Chat Memory, window 2: turn 2 replayed ${rolesOf(seen.secondTurn)} (turn 1 stored ${rowsAfterTurnOne[0].rows} rows; LangChain's window alone is the last 4, starting at a tool result)`,
	);
}
