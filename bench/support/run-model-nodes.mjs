// @ts-check
/**
 * Cold start of `toolbridge run` on n8n's AI Agent (fixtures/workflows/n8n-ai-agent.json) with
 * three chat-model nodes, each against a loopback fake in its own wire format answering at once
 * (no tool call): the OpenRouter Chat Model (the built-in OpenAI-compatible client), the
 * DeepSeek Chat Model (its own node code: LangChain's ChatOpenAI) and the Ollama Chat Model
 * (its own node code: ChatOllama on Ollama's native /api/chat). Process start → answer printed
 * and exit. The fake runs in this process, so the CLI is spawned asynchronously.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sse = (text) =>
	[
		{ choices: [{ index: 0, delta: { role: 'assistant', content: text } }] },
		{ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
	]
		.map(
			(chunk) =>
				`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench', ...chunk })}\n\n`,
		)
		.join('') + 'data: [DONE]\n\n';
const ndjson = (text) =>
	[
		{ message: { role: 'assistant', content: text }, done: false },
		{
			message: { role: 'assistant', content: '' },
			done: true,
			done_reason: 'stop',
			prompt_eval_count: 1,
			eval_count: 1,
		},
	]
		.map(
			(line) =>
				`${JSON.stringify({ model: 'bench', created_at: '2026-01-01T00:00:00Z', ...line })}\n`,
		)
		.join('');

/** Starts the fake: Chat Completions SSE on /v1/chat/completions, Ollama NDJSON on /api/chat. */
async function startFake() {
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			if (request.url === '/api/chat') {
				response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
				response.end(ndjson('ok'));
			} else {
				response.writeHead(200, { 'Content-Type': 'text/event-stream' });
				response.end(sse('ok'));
			}
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return { origin: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

/** @param {string} node @param {string[]} args @param {NodeJS.ProcessEnv} env */
function timeSpawn(node, args, env) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(node, args, { env });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (data) => (stdout += data));
		child.stderr.on('data', (data) => (stderr += data));
		child.on('close', (code) => {
			const wall = performance.now() - started;
			if (code !== 0 || stdout.trim() !== 'ok')
				reject(
					new Error(`toolbridge ${args.slice(1).join(' ')} failed (${code}): ${stdout}\n${stderr}`),
				);
			else resolve({ wall, cpu: Number.NaN });
		});
	});
}

/**
 * Measures the three `run` cold starts with `series`, returns their rows by key.
 * @param {{ repo: string, bin: string, node: string, env: NodeJS.ProcessEnv,
 *   series: (label: string, measure: () => Promise<{ wall: number, cpu: number }>) => Promise<{ median: number }> }} options
 */
export async function measureRunColdStarts({ repo, bin, node, env, series }) {
	const fake = await startFake();
	const directory = mkdtempSync(join(tmpdir(), 'toolbridge-bench-run-'));
	try {
		const base = JSON.parse(
			readFileSync(join(repo, 'fixtures/workflows/n8n-ai-agent.json'), 'utf8'),
		);
		const modelIndex = base.nodes.findIndex(
			(/** @type {{ name: string }} */ each) => each.name === 'OpenRouter Chat Model',
		);
		/** @param {string} name @param {object} model */
		const withModel = (name, model) => {
			const workflow = structuredClone(base);
			workflow.nodes[modelIndex] = { ...workflow.nodes[modelIndex], ...model };
			const file = join(directory, `${name}.json`);
			writeFileSync(file, JSON.stringify(workflow));
			return file;
		};
		const workflows = {
			openRouter: withModel('openrouter', {}),
			deepSeek: withModel('deepseek', {
				type: '@n8n/n8n-nodes-langchain.lmChatDeepSeek',
				parameters: { model: 'deepseek-chat', options: {} },
				credentials: { deepSeekApi: { id: 'd', name: 'OpenRouter account' } },
			}),
			ollama: withModel('ollama', {
				type: '@n8n/n8n-nodes-langchain.lmChatOllama',
				parameters: { model: 'llama3.2', options: {} },
				credentials: { ollamaApi: { id: 'o', name: 'OpenRouter account' } },
			}),
		};
		const credentials = join(directory, 'credentials.json');
		writeFileSync(
			credentials,
			JSON.stringify({
				'OpenRouter account': {
					apiKey: 'sk-bench',
					url: `${fake.origin}/v1`,
					baseUrl: fake.origin,
				},
			}),
		);
		/** @param {string} file */
		const run = (file) => () =>
			timeSpawn(node, [bin, 'run', file, '--prompt', 'x', '--credentials', credentials], env);
		return {
			openRouter: await series(
				'toolbridge run (OpenRouter node, built-in)',
				run(workflows.openRouter),
			),
			deepSeek: await series('toolbridge run (DeepSeek node, its code)', run(workflows.deepSeek)),
			ollama: await series('toolbridge run (Ollama node, its code)', run(workflows.ollama)),
		};
	} finally {
		fake.close();
		rmSync(directory, { recursive: true, force: true });
	}
}
