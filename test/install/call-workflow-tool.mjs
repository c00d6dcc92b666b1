// @ts-check
/**
 * The README's Claude Desktop / Cursor recipe for a workflow with a Calculator and a Call n8n
 * Workflow Tool (fixtures/workflows/calculator-and-workflow-tool.json: n8n's AI Agent, the
 * Calculator, and "Add numbers" calling this workflow's own Execute Workflow Trigger), in a new
 * user's folder with n8n's LangChain nodes beside n8n-toolbridge: `toolbridge mcp` over stdio
 * lists both tools with n8n's schemas, and `tools/call` runs each — the sub-workflow included.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Speaks MCP over `npx toolbridge mcp <workflow>`'s stdio: initialize, then each request in turn.
 * @param {string} cwd the user's folder
 * @param {string} workflow
 * @param {Array<{ method: string, params: object }>} requests
 * @returns {Promise<any[]>} the results, in order
 */
function mcpSession(cwd, workflow, requests) {
	return new Promise((resolvePromise, reject) => {
		const child = spawn('npx', ['--no-install', 'toolbridge', 'mcp', workflow], { cwd });
		/** @type {any[]} */
		const results = [];
		let buffer = '';
		let stderr = '';
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`toolbridge mcp did not answer within 120 s:\n${stderr}`));
		}, 120_000);
		const send = (/** @type {object} */ message) =>
			child.stdin.write(`${JSON.stringify(message)}\n`);
		child.stderr.on('data', (data) => (stderr += data));
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (results.length < requests.length)
				reject(
					new Error(`toolbridge mcp exited ${code} after ${results.length} answers:\n${stderr}`),
				);
		});
		child.stdout.on('data', (data) => {
			buffer += data;
			for (const line of buffer.split('\n').slice(0, -1)) {
				const message = JSON.parse(line);
				if (message.id === 0) {
					send({ jsonrpc: '2.0', method: 'notifications/initialized' });
				} else if (typeof message.id === 'number') {
					results.push(message.error ? { error: message.error } : message.result);
				} else continue;
				const next = requests[results.length];
				if (next) send({ jsonrpc: '2.0', id: results.length + 1, ...next });
				else {
					clearTimeout(timer);
					child.stdin.end();
					resolvePromise(results);
				}
			}
			buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
		});
		send({
			jsonrpc: '2.0',
			id: 0,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 'install-test', version: '1' },
			},
		});
	});
}

/**
 * Checks the recipe with the Calculator and the Call n8n Workflow Tool.
 * @param {{ repo: string, user: string, check: (condition: boolean, message: string) => void, say: (line: string) => void }} options
 *   `user`: a folder with the packed tarballs and `@n8n/n8n-nodes-langchain` installed
 * @returns {Promise<void>}
 * @throws {Error} when a check fails or `toolbridge mcp` does not answer
 */
export async function checkCallWorkflowTool({ repo, user, check, say }) {
	const workflow = join(repo, 'fixtures/workflows/calculator-and-workflow-tool.json');
	say(
		`\n$ npx toolbridge mcp ${workflow}   # tools/list, then tools/call Calculator and Add_numbers`,
	);
	const [listed, calculator, added] = await mcpSession(user, workflow, [
		{ method: 'tools/list', params: {} },
		{ method: 'tools/call', params: { name: 'Calculator', arguments: { input: '2+2*3' } } },
		{ method: 'tools/call', params: { name: 'Add_numbers', arguments: { a: 2, b: 3 } } },
	]);
	const schemas = Object.fromEntries(
		(listed?.tools ?? []).map((/** @type {any} */ tool) => [tool.name, tool.inputSchema]),
	);
	say(`← tools: ${JSON.stringify(schemas)}`);
	check(
		JSON.stringify(Object.keys(schemas).sort()) === '["Add_numbers","Calculator"]' &&
			schemas.Calculator?.properties?.input?.type === 'string' &&
			schemas.Add_numbers?.properties?.a?.type === 'number' &&
			schemas.Add_numbers?.properties?.b?.type === 'number',
		"toolbridge mcp lists the Calculator and the Call n8n Workflow Tool with n8n's schemas",
	);
	const text = (/** @type {any} */ result) => result?.content?.[0]?.text ?? JSON.stringify(result);
	say(`← Calculator: ${text(calculator)}; Add_numbers: ${text(added)}`);
	check(calculator?.isError !== true && text(calculator) === '8', 'the Calculator answers 8');
	check(
		added?.isError !== true && JSON.parse(text(added))[0]?.sum === 5,
		'the Call n8n Workflow Tool runs its sub-workflow: sum 5',
	);
}
