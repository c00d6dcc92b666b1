// @ts-check
/**
 * n8n's JavaScript Code Tool and HTTP Request Tool from the packed tarballs, in a new user's
 * folder with n8n's LangChain nodes beside n8n-toolbridge
 * (fixtures/workflows/code-and-http-tools.json: n8n's AI Agent, a Code Tool "Shout" and an HTTP
 * Request Tool "Echo"): `toolbridge call` runs the Code Tool through n8n's task-runner code
 * (`@n8n/task-runner`, a dependency of n8n-toolbridge) and the HTTP Request Tool's
 * `{placeholder}` request against a loopback server started here (its port written over
 * `ECHO_PORT` in the copy the user's folder gets).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

/**
 * `npx toolbridge call <workflow> <tool> --args <json>` without blocking this process (the
 * loopback server must answer meanwhile).
 * @param {string} cwd
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function toolbridge(cwd, args) {
	return new Promise((resolvePromise, reject) => {
		const child = spawn('npx', ['--no-install', 'toolbridge', ...args], { cwd });
		let stdout = '';
		let stderr = '';
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`toolbridge ${args[0]} did not finish within 120 s:\n${stderr}`));
		}, 120_000);
		child.stdout.on('data', (data) => (stdout += data));
		child.stderr.on('data', (data) => (stderr += data));
		child.on('exit', (code) => {
			clearTimeout(timer);
			resolvePromise({ code, stdout, stderr });
		});
	});
}

/**
 * Checks the Code Tool and the HTTP Request Tool through the installed CLI.
 * @param {{ repo: string, user: string, check: (condition: boolean, message: string) => void }} options
 *   `user`: a folder with the packed tarballs and `@n8n/n8n-nodes-langchain` installed
 * @returns {Promise<void>}
 */
export async function checkCodeAndHttpTools({ repo, user, check }) {
	/** @type {string[]} */
	const requested = [];
	const server = createServer((request, response) => {
		requested.push(request.url ?? '');
		response.setHeader('content-type', 'application/json');
		response.end(
			JSON.stringify({
				word: decodeURIComponent((request.url ?? '').split('/').pop() ?? ''),
				found: true,
			}),
		);
	});
	await new Promise((resolvePromise) =>
		server.listen(0, '127.0.0.1', () => resolvePromise(undefined)),
	);
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const workflow = join(user, 'code-and-http-tools.json');
	const fixture = readFileSync(join(repo, 'fixtures/workflows/code-and-http-tools.json'), 'utf8');
	writeFileSync(workflow, fixture.replace('ECHO_PORT', String(address.port)));
	try {
		const listed = await toolbridge(user, ['tools', workflow, '--json']);
		const tools = JSON.parse(listed.stdout || '{"agents":[{"tools":[]}]}').agents[0].tools;
		check(
			listed.code === 0 &&
				tools.map((/** @type {any} */ tool) => tool.name).join(',') === 'Shout,Echo' &&
				tools[1].parameters.properties.word?.type === 'string',
			`n8n's Code Tool and HTTP Request Tool listed with n8n's schemas (the placeholder as "word")${listed.code === 0 ? '' : `: ${listed.stderr}`}`,
		);
		const shout = await toolbridge(user, [
			'call',
			workflow,
			'Shout',
			'--args',
			'{"input":"hello"}',
		]);
		check(
			shout.code === 0 && shout.stdout.trim() === 'HELLO',
			`toolbridge call runs n8n's JavaScript Code Tool through n8n's task-runner code: ${JSON.stringify(shout.stdout.trim() || shout.stderr.trim())}`,
		);
		const echo = await toolbridge(user, ['call', workflow, 'Echo', '--args', '{"word":"ada"}']);
		check(
			echo.code === 0 && requested.includes('/echo/ada') && /"found": ?true/.test(echo.stdout),
			`toolbridge call runs n8n's HTTP Request Tool: GET /echo/ada, answer read: ${JSON.stringify(echo.stdout.trim() || echo.stderr.trim())}`,
		);
	} finally {
		server.close();
	}
}
