// @ts-check
/**
 * One throw-away n8n: a temp `N8N_USER_FOLDER`, loopback only, free ports, telemetry off.
 * Runs CLI commands (`import:workflow`, `import:credentials`, `execute`) with their logs
 * captured to files, and `n8n start` with readiness polling, owner setup, REST and
 * webhook calls, and guaranteed shutdown (process-group kill).
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePorts } from './free-port.mjs';
import { runCommand, tailFile } from './run-command.mjs';
import { isRunning, killGroup, spawnService, stopChild } from './service-process.mjs';

/** Owner account created on `start()`; loopback only, never a real secret. */
export const OWNER = Object.freeze({
	email: 'e2e-owner@toolbridge.invalid',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-owner-Passw0rd',
});

/**
 * Parse the JSON document `n8n execute --rawOutput` prints after its log lines.
 * @param {string} stdout
 * @returns {any}
 * @throws {Error} when no JSON object can be found
 */
export function parseRawOutput(stdout) {
	const start = stdout.indexOf('{');
	if (start < 0) throw new Error(`no JSON in n8n output:\n${stdout.slice(-2000)}`);
	const text = stdout.slice(start);
	try {
		return JSON.parse(text);
	} catch {
		// Trailing log lines after the JSON: cut at the last closing brace that parses.
		for (let end = text.lastIndexOf('}'); end > 0; end = text.lastIndexOf('}', end - 1)) {
			try {
				return JSON.parse(text.slice(0, end + 1));
			} catch {
				// keep looking
			}
		}
		throw new Error(`unparsable JSON in n8n output:\n${text.slice(0, 2000)}`);
	}
}

/**
 * Lines of an n8n log that report a problem loading nodes/credentials of `packageName`
 * (or any `Error`-level line mentioning it).
 * @param {string} logText
 * @param {string} packageName
 * @returns {string[]}
 */
export function packageLoadProblems(logText, packageName) {
	const lines = logText.split('\n');
	/** @type {string[]} */
	const problems = [];
	lines.forEach((line, index) => {
		const relevant =
			line.includes(packageName) || /community package|load(ing)? (nodes|package)/i.test(line);
		if (relevant && /error|fail|could not|cannot|unable|invalid/i.test(line)) {
			// The line and what n8n printed right after it (error details, stack).
			problems.push(lines.slice(index, index + 6).join('\n'));
		}
	});
	return problems;
}

/**
 * A throw-away n8n instance rooted in a temp folder.
 */
export class N8nInstance {
	/**
	 * @param {{ nodeBin: string, n8nBin: string, pathWithNode: string, templateUserFolder?: string }} install from `provision()`
	 * @param {{ name?: string, logLevel?: string, keepFolder?: boolean, extraEnv?: Record<string, string>, folder?: string, port?: number }} [options]
	 *   `folder`: use (and keep) this folder instead of a temp one; `port`: fixed HTTP port
	 */
	constructor(install, options = {}) {
		this.install = install;
		this.options = options.folder ? { ...options, keepFolder: true } : options;
		this.folder =
			options.folder ?? mkdtempSync(join(tmpdir(), `toolbridge-e2e-${options.name ?? 'n8n'}-`));
		this.userFolder = join(this.folder, 'user');
		this.logDir = join(this.folder, 'logs');
		mkdirSync(this.userFolder, { recursive: true });
		mkdirSync(this.logDir, { recursive: true });
		const template = install.templateUserFolder
			? join(install.templateUserFolder, '.n8n')
			: undefined;
		if (
			template &&
			existsSync(join(template, 'database.sqlite')) &&
			!existsSync(join(this.userFolder, '.n8n', 'database.sqlite'))
		) {
			// A migrated database (and its encryption key): skips ~25 s of migrations.
			mkdirSync(join(this.userFolder, '.n8n'), { recursive: true });
			for (const file of readdirSync(template)) {
				// config (encryption key) and database.sqlite with its -wal/-shm files
				if (file === 'config' || file.startsWith('database.sqlite'))
					copyFileSync(join(template, file), join(this.userFolder, '.n8n', file));
			}
		}
		/** @type {number} */
		this.port = 0;
		/** @type {number} */
		this.brokerPort = 0;
		this.commandCount = 0;
		/** @type {import('node:child_process').ChildProcess | undefined} */
		this.server = undefined;
		this.serverLog = join(this.logDir, 'server.log');
		/** @type {string | undefined} */
		this.cookie = undefined;
		this.killOnExit = () => this.killServer('SIGKILL');
	}

	/** Directory n8n loads community packages from. */
	get nodesDir() {
		return join(this.userFolder, '.n8n', 'nodes');
	}

	/** `http://127.0.0.1:<port>` once ports are chosen. */
	get baseUrl() {
		return `http://127.0.0.1:${this.port}`;
	}

	/**
	 * Choose the ports (main ≠ task broker). Called by the first command.
	 * @returns {Promise<void>}
	 */
	async choosePorts() {
		if (this.port) return;
		const [first, second, third] = await freePorts(3);
		this.port = this.options.port ?? first;
		this.brokerPort = second === this.port ? third : second;
	}

	/**
	 * The environment every n8n process of this instance gets: nothing N8N_* inherited
	 * from the caller, the install's Node first on PATH.
	 * @returns {NodeJS.ProcessEnv}
	 */
	env() {
		/** @type {NodeJS.ProcessEnv} */
		const env = {};
		for (const [key, value] of Object.entries(process.env)) {
			if (!/^(N8N_|DB_|NODE_OPTIONS$|WEBHOOK_URL$|npm_|CI$)/.test(key)) env[key] = value;
		}
		return {
			...env,
			PATH: this.install.pathWithNode,
			N8N_USER_FOLDER: this.userFolder,
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'http',
			N8N_WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_LOG_LEVEL: this.options.logLevel ?? 'info',
			N8N_LOG_OUTPUT: 'console',
			...this.options.extraEnv,
		};
	}

	/**
	 * Run an n8n CLI command to completion; its output goes to a numbered log file.
	 * @param {string[]} args
	 * @param {{ timeoutMs?: number, allowFailure?: boolean }} [options]
	 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, logPath: string }>}
	 * @throws {Error} (with the log tail) when the command fails and allowFailure is not set
	 */
	async cli(args, options = {}) {
		await this.choosePorts();
		this.commandCount += 1;
		const logPath = join(
			this.logDir,
			`${String(this.commandCount).padStart(2, '0')}-${args[0].replace(/[^a-z0-9]+/gi, '-')}.log`,
		);
		const result = await runCommand(this.install.nodeBin, [this.install.n8nBin, ...args], {
			env: this.env(),
			cwd: this.folder,
			logPath,
			timeoutMs: options.timeoutMs ?? 180_000,
		});
		if (result.code !== 0 && !options.allowFailure) {
			throw new Error(
				`n8n ${args.join(' ')} exited ${result.code ?? result.signal} (log ${logPath}):\n${tailFile(logPath, 50)}`,
			);
		}
		return { ...result, logPath };
	}

	/**
	 * Import a workflow (object with `id`, `nodes`, `connections`, …) via `n8n import:workflow`.
	 * @param {Record<string, any>} workflow
	 * @returns {Promise<string>} the workflow id
	 * @throws {Error} when the import fails
	 */
	async importWorkflow(workflow) {
		const file = join(this.folder, `workflow-${workflow.id}.json`);
		writeFileSync(file, JSON.stringify(workflow, null, '\t'));
		await this.cli(['import:workflow', `--input=${file}`]);
		return workflow.id;
	}

	/**
	 * Import credentials (array of `{ id, name, type, data }` with plain `data`; n8n
	 * encrypts it with this instance's key) via `n8n import:credentials`.
	 * @param {Array<{ id: string, name: string, type: string, data: Record<string, unknown> }>} credentials
	 * @returns {Promise<void>}
	 * @throws {Error} when the import fails
	 */
	async importCredentials(credentials) {
		const file = join(this.folder, `credentials-${this.commandCount + 1}.json`);
		writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
		try {
			await this.cli(['import:credentials', `--input=${file}`]);
		} finally {
			rmSync(file, { force: true });
		}
	}

	/**
	 * Run an imported workflow with `n8n execute --id --rawOutput`.
	 * @param {string} workflowId
	 * @returns {Promise<{ ok: boolean, result: any, stdout: string, logPath: string }>}
	 *   `result` is the parsed JSON (undefined when none was printed)
	 * @throws {Error} when n8n produced neither JSON nor a clean failure
	 */
	async execute(workflowId) {
		const run = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			allowFailure: true,
		});
		let result;
		try {
			result = parseRawOutput(run.stdout);
		} catch (error) {
			if (run.code === 0) throw error;
		}
		// n8n 1.123's CLI on Node 22 can die (SIGSEGV) while exiting after it printed a finished,
		// successful run: the run is judged by what it printed; the crash is reported, not hidden.
		const succeeded = result?.finished === true && result?.status === 'success';
		if (run.code !== 0 && succeeded)
			process.stderr.write(
				`   note: n8n execute exited abnormally after printing a successful run (log ${run.logPath})\n`,
			);
		return { ok: run.code === 0 || succeeded, result, stdout: run.stdout, logPath: run.logPath };
	}

	/**
	 * `n8n start`, wait for `/healthz/readiness`, create the owner and log in.
	 * @param {{ timeoutMs?: number }} [options]
	 * @returns {Promise<void>}
	 * @throws {Error} with the server log tail when n8n exits or is not ready in time
	 */
	async start(options = {}) {
		await this.choosePorts();
		const timeoutMs = options.timeoutMs ?? 120_000;
		const exited = this.spawnServer(['start']);
		await this.waitForReadiness(exited, timeoutMs, {
			exitedAs: 'n8n start',
			notReadyAs: 'n8n',
			tailLines: 50,
		});
		await this.setupOwner();
	}

	/**
	 * Spawn `n8n <args>` as this instance's server: its own process group, output appended to
	 * the server log, killed when this process exits.
	 * @param {string[]} args
	 * @param {string} [header] written to the server log first
	 * @returns {() => string | undefined} `exited <code or signal>` once the process is gone
	 */
	spawnServer(args, header) {
		const { child, exited } = spawnService(this.install.nodeBin, [this.install.n8nBin, ...args], {
			env: this.env(),
			cwd: this.folder,
			logPath: this.serverLog,
			header,
			killOnExit: this.killOnExit,
		});
		this.server = child;
		return exited;
	}

	/**
	 * Poll `/healthz/readiness` every 250 ms until it answers OK.
	 * @param {() => string | undefined} exited from `spawnServer`
	 * @param {number} timeoutMs
	 * @param {{ exitedAs: string, notReadyAs: string, tailLines: number }} words how the errors name the process, and how much log they quote
	 * @returns {Promise<void>}
	 * @throws {Error} with the server log tail when the process exits or is not ready in time
	 */
	async waitForReadiness(exited, timeoutMs, words) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (exited())
				throw new Error(
					`${words.exitedAs} ${exited()} (log ${this.serverLog}):\n${tailFile(this.serverLog, words.tailLines)}`,
				);
			if (Date.now() > deadline) {
				throw new Error(
					`${words.notReadyAs} not ready after ${timeoutMs} ms (log ${this.serverLog}):\n${tailFile(this.serverLog, words.tailLines)}`,
				);
			}
			try {
				const response = await fetch(`${this.baseUrl}/healthz/readiness`);
				if (response.ok) break;
			} catch {
				// not listening yet
			}
			await sleep(250);
		}
	}

	/**
	 * Create the owner (`POST /rest/owner/setup`) and keep its auth cookie.
	 * @returns {Promise<void>}
	 * @throws {Error} when n8n refuses
	 */
	async setupOwner() {
		const response = await fetch(`${this.baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(OWNER),
		});
		if (!response.ok)
			throw new Error(`owner setup: HTTP ${response.status} ${await response.text()}`);
		const cookies = response.headers.getSetCookie?.() ?? [];
		this.cookie = cookies.map((cookie) => cookie.split(';')[0]).join('; ');
	}

	/**
	 * Authenticated REST call (`/rest/...`) as the owner.
	 * @param {string} method
	 * @param {string} path path below the base URL, e.g. `/rest/workflows`
	 * @param {unknown} [body]
	 * @returns {Promise<any>} the parsed JSON body (`data` unwrapped when present)
	 * @throws {Error} on a non-2xx answer
	 */
	async rest(method, path, body) {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				...(this.cookie ? { cookie: this.cookie } : {}),
				'browser-id': 'toolbridge-e2e',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 1000)}`);
		const json = text ? JSON.parse(text) : undefined;
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	}

	/**
	 * Call a production webhook (`/webhook/<path>`).
	 * @param {string} path
	 * @param {RequestInit} [init]
	 * @returns {Promise<Response>}
	 */
	webhook(path, init) {
		return fetch(`${this.baseUrl}/webhook/${path}`, init);
	}

	/**
	 * POST JSON to a production webhook and parse the JSON answer.
	 * @param {string} path
	 * @param {unknown} body
	 * @returns {Promise<any>} the parsed answer (undefined when it is empty)
	 * @throws {Error} on a non-2xx answer
	 */
	async postJson(path, body) {
		const response = await this.webhook(path, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`POST /webhook/${path}: HTTP ${response.status} ${text.slice(0, 800)}`);
		return text ? JSON.parse(text) : undefined;
	}

	/**
	 * Wait until a production webhook is registered. `/healthz/readiness` answers before
	 * n8n 2.41 has activated the published workflows (that goes on after start-up, slower on
	 * a busy machine), so a request right after `start()` may get "webhook is not registered".
	 * A CORS preflight (`OPTIONS` with `Origin`) looks the path up without running anything:
	 * an error until registered, 204 after.
	 * @param {string} path
	 * @param {{ method?: string, timeoutMs?: number }} [options]
	 * @returns {Promise<void>}
	 * @throws {Error} with the server log tail when it is not registered in time
	 */
	async waitForWebhook(path, options = {}) {
		const timeoutMs = options.timeoutMs ?? 60_000;
		const deadline = Date.now() + timeoutMs;
		/** @type {number[]} */
		const statuses = [];
		for (;;) {
			const response = await fetch(`${this.baseUrl}/webhook/${path}`, {
				method: 'OPTIONS',
				headers: {
					origin: this.baseUrl,
					'access-control-request-method': options.method ?? 'POST',
				},
			});
			await response.arrayBuffer();
			if (response.ok) return;
			if (statuses.at(-1) !== response.status) statuses.push(response.status);
			if (Date.now() > deadline) {
				throw new Error(
					`webhook '${path}' not registered after ${timeoutMs} ms (OPTIONS answered ${statuses.join(', ')}; log ${this.serverLog}):\n${tailFile(this.serverLog, 30)}`,
				);
			}
			await sleep(250);
		}
	}

	/** Text of the server log so far. */
	serverLogText() {
		try {
			return readFileSync(this.serverLog, 'utf8');
		} catch {
			return '';
		}
	}

	/**
	 * Signal the server's process group.
	 * @param {NodeJS.Signals} signal
	 */
	killServer(signal) {
		if (isRunning(this.server)) killGroup(this.server, signal);
	}

	/**
	 * Stop the server (SIGTERM, then SIGKILL after 15 s).
	 * @returns {Promise<void>}
	 */
	async stop() {
		const server = this.server;
		if (!server) return;
		await stopChild(server, {
			ask: () => this.killServer('SIGTERM'),
			force: () => this.killServer('SIGKILL'),
			graceMs: 15_000,
		});
		// Task runners and other children of the group.
		killGroup(server);
		process.removeListener('exit', this.killOnExit);
		this.server = undefined;
	}

	/**
	 * Stop the server and delete the temp folder (kept for post-mortems when `keep`, the
	 * `keepFolder` option or TOOLBRIDGE_E2E_KEEP=1 says so).
	 * @param {boolean} [keep]
	 * @returns {Promise<string | undefined>} the folder when kept
	 */
	async dispose(keep = false) {
		await this.stop();
		if (keep || this.options.keepFolder || process.env.TOOLBRIDGE_E2E_KEEP === '1')
			return this.folder;
		rmSync(this.folder, { recursive: true, force: true });
		return undefined;
	}
}
