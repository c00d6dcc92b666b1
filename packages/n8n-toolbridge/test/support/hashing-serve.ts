/**
 * `toolbridge serve` on the crypto-agent workflow, its agent's model a loopback fake that
 * hashes: shared by the suites that drive `serve` with real OpenAI clients (Chat Completions
 * and Responses, `openai` 6.x here and 7.x with the Agents SDK in test/real-clients).
 *
 * The model asks for `Hash_text` of the first quoted word of the user's last message, then
 * answers `Hash: <tool result>`. Words that change that: "preamble" (text before the tool
 * call), "leak" (answers with its own key, in 3-character deltas), "slow" (a slow text
 * answer), "fail" (the model server answers 400).
 */
import { createHash } from 'node:crypto';
import {
	errorReply,
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { startToolbridgeServer, type ToolbridgeServer } from './toolbridge-process';

/** The agent's model key (given with --api-key): it must never reach a client. */
export const modelKey = 'model-key-7f3a9c21b6e4d058';
/** The bearer token clients send. */
export const serveToken = 'serve-token-7c2e';
/** The one model (agent) the workflow offers. */
export const agentModel = 'Agent Orchestrator';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What the hashing model answers for `word` after the tool ran. */
export const hashAnswer = (word: string) => `Hash: ${JSON.stringify([{ hash: sha256(word) }])}`;

type WireMessage = { role: string; content: string };

function hashingModel(request: FakeRequest) {
	const messages = request.body.messages as WireMessage[];
	const last = messages.at(-1);
	if (last?.role === 'tool') return textReply(`Hash: ${last.content}`);
	const word = /"([^"]+)"/.exec(last?.content ?? '')?.[1] ?? 'nothing';
	if (word === 'slow') return { ...textReply('Slow answer.'), chunkDelayMs: 400 };
	if (word === 'fail') return errorReply(400, 'upstream refused the request');
	if (word === 'leak') return textReply(`My key is ${modelKey}, as asked.`, { deltaSize: 3 });
	const call = { id: `call_${request.index}`, name: 'Hash_text', arguments: { text: word } };
	return toolCallReply([call], word === 'preamble' ? { text: 'Let me hash it.' } : {});
}

/** A running serve and its fake model. */
export interface HashingServe {
	model: FakeChatServer;
	server: ToolbridgeServer;
	/** `http://127.0.0.1:<port>/v1` */
	baseURL: string;
	stop(): Promise<number | null>;
}

/** Starts the fake model, then `toolbridge serve` with `extraArgs`. */
export async function startHashingServe(extraArgs: string[] = []): Promise<HashingServe> {
	const model = await startFakeChatServer({ respond: hashingModel });
	const server = await startToolbridgeServer(
		[
			'serve',
			'fixtures/workflows/crypto-agent.json',
			'--port',
			'0',
			'--base-url',
			model.baseUrl,
			'--api-key',
			modelKey,
			...extraArgs,
		],
		{ TOOLBRIDGE_TOKEN: serveToken },
	);
	return {
		model,
		server,
		baseURL: `${server.url}/v1`,
		stop: async () => {
			const code = await server.stop();
			await model.close();
			return code;
		},
	};
}
