// @ts-check
/**
 * n8n's distributed engine on one machine, all on loopback with throw-away state:
 *
 *   Postgres (temp data dir)  ←  n8n main  (`n8n start`, EXECUTIONS_MODE=queue: takes webhooks,
 *   Redis    (no persistence) ←            enqueues executions on Bull, answers the HTTP caller)
 *                             ←  worker-1, worker-2 (`n8n worker`: take jobs, read the workflow
 *                                from Postgres, write results back, relay responses and chunks
 *                                to main through Bull job progress)
 *
 * Every n8n process has its own user folder with our package installed the community-package
 * way, and the same encryption key. Bull's stall detection is tightened (lock 20 s, stall
 * check every 5 s instead of 60 s / 30 s) so a killed worker is noticed within the scenario's
 * time; n8n forces `maxStalledCount: 0` (scaling.service.js), so a stalled job is failed, never
 * re-run.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { installPackageLikeN8n } from './install-package.mjs';
import { N8nInstance } from './n8n-instance.mjs';
import { PostgresServer, POSTGRES_USER } from './postgres.mjs';
import { RedisServer } from './redis.mjs';
import { isRunning, killGroup } from './service-process.mjs';

/** Bull timings for the test topology (n8n's defaults: 60000 / 10000 / 30000 ms). */
export const BULL_TIMINGS = Object.freeze({
	lockDurationMs: 20_000,
	lockRenewMs: 5_000,
	stalledIntervalMs: 5_000,
});

/** Jobs one worker runs at once (`n8n worker --concurrency`). */
export const WORKER_CONCURRENCY = 10;

/**
 * One n8n process of the topology: `n8n start` (main) or `n8n worker`.
 */
export class QueueProcess extends N8nInstance {
	/**
	 * @param {ConstructorParameters<typeof N8nInstance>[0]} install
	 * @param {{ name: string, role: 'main' | 'worker', extraEnv: Record<string, string>, logLevel?: string, sqlite?: boolean }} options
	 *   `sqlite`: regular mode on a copy of the provisioned SQLite database (else Postgres, set in extraEnv)
	 */
	constructor(install, options) {
		super(options.sqlite ? install : { ...install, templateUserFolder: undefined }, {
			name: options.name,
			extraEnv: options.extraEnv,
			logLevel: options.logLevel,
		});
		this.name = options.name;
		this.role = options.role;
		this.ownerReady = false;
	}

	/** @override */
	env() {
		const env = super.env();
		if (this.role === 'worker') {
			// The worker's HTTP server only serves /healthz (readiness) here.
			env.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
			env.QUEUE_HEALTH_CHECK_PORT = String(this.port);
			env.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
		}
		return env;
	}

	/**
	 * Whether the process is running.
	 * @returns {boolean}
	 */
	get running() {
		return isRunning(this.server);
	}

	/**
	 * Start (or start again) and wait for readiness; main also gets its owner (created on the
	 * first start, logged in on later ones).
	 * @param {{ timeoutMs?: number }} [options]
	 * @returns {Promise<void>}
	 * @throws {Error} with the log tail when the process exits or is not ready in time
	 * @override
	 */
	async start(options = {}) {
		await this.choosePorts();
		const timeoutMs = options.timeoutMs ?? 180_000;
		const args =
			this.role === 'main' ? ['start'] : ['worker', `--concurrency=${WORKER_CONCURRENCY}`];
		const exited = this.spawnServer(
			args,
			`\n==== ${new Date().toISOString()} start ${this.role}\n`,
		);
		await this.waitForReadiness(exited, timeoutMs, {
			exitedAs: `n8n ${this.name}`,
			notReadyAs: `n8n ${this.name}`,
			tailLines: 40,
		});
		if (this.role === 'main') {
			if (this.ownerReady) await this.login();
			else await this.setupOwner();
			this.ownerReady = true;
		}
	}

	/**
	 * Log in as the owner (a restarted main) and keep the auth cookie.
	 * @returns {Promise<void>}
	 * @throws {Error} when n8n refuses
	 */
	async login() {
		const { OWNER } = await import('./n8n-instance.mjs');
		const response = await fetch(`${this.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': 'toolbridge-e2e' },
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		});
		if (!response.ok) throw new Error(`login: HTTP ${response.status} ${await response.text()}`);
		const cookies = response.headers.getSetCookie?.() ?? [];
		this.cookie = cookies.map((cookie) => cookie.split(';')[0]).join('; ');
	}

	/**
	 * Delete this process's event log files (`<user folder>/.n8n/n8nEventLog*.log`), which n8n
	 * replays at start-up to recover executions it considers unfinished.
	 * @returns {string[]} the deleted file names
	 */
	clearEventLog() {
		const dir = join(this.userFolder, '.n8n');
		const files = readdirSync(dir).filter((file) => /^n8nEventLog.*\.log$/.test(file));
		for (const file of files) rmSync(join(dir, file), { force: true });
		return files;
	}

	/**
	 * SIGKILL the whole process group (n8n and its task runner) and wait until it is gone.
	 * @returns {Promise<void>}
	 */
	async kill() {
		const server = this.server;
		if (!server || !this.running) return;
		const gone = new Promise((resolve) => server.once('exit', resolve));
		this.killServer('SIGKILL');
		await gone;
		killGroup(server);
	}
}

/**
 * Create a credential through an n8n main's REST API.
 * @param {N8nInstance} main a started main (owner logged in)
 * @param {{ name: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<{ id: string, name: string }>}
 */
export async function createCredential(main, credential) {
	const created = await main.rest('POST', '/rest/credentials', {
		name: credential.name,
		type: credential.type,
		data: credential.data,
	});
	return { id: created.id, name: created.name };
}

/**
 * Create a workflow through an n8n main's REST API and publish (activate) it; wait until its
 * webhook paths answer.
 * @param {N8nInstance} main a started main (owner logged in)
 * @param {Record<string, any>} definition from `workflow()`
 * @returns {Promise<string>} the workflow id
 */
export async function deployWorkflow(main, definition) {
	const { active: _active, ...body } = definition;
	const created = await main.rest('POST', '/rest/workflows', body);
	await main.rest('POST', `/rest/workflows/${created.id}/activate`, {
		versionId: created.versionId,
	});
	for (const webhookNode of definition.nodes.filter(
		(/** @type {any} */ node) => node.type === 'n8n-nodes-base.webhook',
	)) {
		await main.waitForWebhook(webhookNode.parameters.path, {
			method: webhookNode.parameters.httpMethod ?? 'GET',
		});
	}
	return created.id;
}

/**
 * A new n8n process with our package installed the community-package way. With `sqlite` it
 * starts from the provisioned, already migrated SQLite database (regular mode).
 * @param {import('./context.mjs').RunContext} run
 * @param {{ name: string, role: 'main' | 'worker', extraEnv?: Record<string, string>, sqlite?: boolean }} options
 * @returns {Promise<QueueProcess>}
 */
export async function newProcess(run, options) {
	const created = new QueueProcess(run.install, {
		name: options.name,
		role: options.role,
		extraEnv: options.extraEnv ?? {},
		logLevel: 'info',
		sqlite: options.sqlite,
	});
	await installPackageLikeN8n({
		repoDir: run.repoDir,
		nodesDir: created.nodesDir,
		pathWithNode: run.install.pathWithNode,
		nodeDir: run.install.nodeDir,
		logPath: join(created.logDir, 'package-install.log'),
		tarball: run.tarball,
	});
	return created;
}

/**
 * Main + two workers on a throw-away Postgres and Redis.
 */
export class QueueTopology {
	/**
	 * @param {{ run: import('./context.mjs').RunContext, programs: import('./system-packages.mjs').ServerPrograms, workers?: number }} options
	 */
	constructor(options) {
		this.run = options.run;
		this.programs = options.programs;
		this.workerCount = options.workers ?? 2;
		this.postgres = new PostgresServer({
			binDir: options.programs.postgresBinDir,
			n8nDir: options.run.install.n8nDir,
			name: 'queue',
		});
		this.redis = new RedisServer({ redisServer: options.programs.redisServer });
		this.database = 'n8n';
		this.encryptionKey = randomBytes(24).toString('hex');
		/** @type {QueueProcess | undefined} */
		this.main = undefined;
		/** @type {QueueProcess[]} */
		this.workers = [];
		/** @type {Record<string, number>} */
		this.timings = {};
	}

	/**
	 * Environment shared by main and workers.
	 * @returns {Record<string, string>}
	 */
	sharedEnv() {
		return {
			EXECUTIONS_MODE: 'queue',
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.postgres.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: POSTGRES_USER,
			DB_POSTGRESDB_PASSWORD: 'unused-trust-auth',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redis.port),
			QUEUE_WORKER_LOCK_DURATION: String(BULL_TIMINGS.lockDurationMs),
			QUEUE_WORKER_LOCK_RENEW_TIME: String(BULL_TIMINGS.lockRenewMs),
			QUEUE_WORKER_STALLED_INTERVAL: String(BULL_TIMINGS.stalledIntervalMs),
			// Workers build resume links (webhook-waiting) and must point them at main.
			...(this.main ? { WEBHOOK_URL: `${this.main.baseUrl}/` } : {}),
		};
	}

	/**
	 * Start everything: Postgres + Redis, main (runs the migrations, creates the owner), then
	 * the workers in parallel.
	 * @param {(line: string) => void} [log]
	 * @returns {Promise<void>}
	 * @throws {Error} when a part does not come up
	 */
	async start(log = () => {}) {
		let started = Date.now();
		await Promise.all([this.postgres.start(), this.redis.start()]);
		await this.postgres.createDatabase(this.database);
		this.timings.services = (Date.now() - started) / 1000;
		log(
			`Postgres on 127.0.0.1:${this.postgres.port} (as '${this.postgres.account.name}'), Redis on 127.0.0.1:${this.redis.port}: ${this.timings.services.toFixed(1)} s`,
		);

		started = Date.now();
		const main = await newProcess(this.run, { name: 'main', role: 'main' });
		await main.choosePorts();
		this.main = main;
		main.options.extraEnv = { ...this.sharedEnv(), WEBHOOK_URL: `${main.baseUrl}/` };
		await main.start();
		this.timings.main = (Date.now() - started) / 1000;
		log(
			`main (n8n start, queue mode, Postgres migrations) ready on ${main.baseUrl}: ${this.timings.main.toFixed(1)} s`,
		);

		started = Date.now();
		for (let index = 1; index <= this.workerCount; index++) {
			const worker = new QueueProcess(this.run.install, {
				name: `worker-${index}`,
				role: 'worker',
				extraEnv: this.sharedEnv(),
				logLevel: 'info',
			});
			mkdirSync(worker.nodesDir, { recursive: true });
			cpSync(main.nodesDir, worker.nodesDir, { recursive: true });
			this.workers.push(worker);
		}
		await Promise.all(this.workers.map((worker) => worker.start()));
		this.timings.workers = (Date.now() - started) / 1000;
		log(
			`${this.workers.map((worker) => worker.name).join(' + ')} (n8n worker --concurrency=${WORKER_CONCURRENCY}) ready: ${this.timings.workers.toFixed(1)} s`,
		);
	}

	/**
	 * The main process (started).
	 * @returns {QueueProcess}
	 */
	get mainProcess() {
		if (!this.main) throw new Error('the queue topology is not started');
		return this.main;
	}

	/**
	 * A worker by name.
	 * @param {string} name
	 * @returns {QueueProcess}
	 */
	worker(name) {
		const worker = this.workers.find((candidate) => candidate.name === name);
		if (!worker) throw new Error(`no worker '${name}'`);
		return worker;
	}

	/**
	 * Start every worker that is not running (after a scenario killed one).
	 * @returns {Promise<string[]>} names of the restarted workers
	 */
	async ensureWorkersRunning() {
		const down = this.workers.filter((worker) => !worker.running);
		await Promise.all(down.map((worker) => worker.start()));
		return down.map((worker) => worker.name);
	}

	/**
	 * Create a credential through main's REST API.
	 * @param {{ name: string, type: string, data: Record<string, unknown> }} credential
	 * @returns {Promise<{ id: string, name: string }>}
	 */
	createCredential(credential) {
		return createCredential(this.mainProcess, credential);
	}

	/**
	 * Create and publish a workflow on main; wait until its webhooks answer.
	 * @param {Record<string, any>} definition from `workflow()`
	 * @returns {Promise<string>} the workflow id
	 */
	deployWorkflow(definition) {
		return deployWorkflow(this.mainProcess, definition);
	}

	/**
	 * Run SQL on n8n's database.
	 * @param {string} sql
	 * @param {unknown[]} [params]
	 * @returns {Promise<any[]>}
	 */
	sql(sql, params = []) {
		return this.postgres.query(sql, params, this.database);
	}

	/**
	 * Executions of a workflow, oldest first, from Postgres.
	 * @param {string} workflowId
	 * @returns {Promise<Array<{ id: string, status: string, finished: boolean, mode: string }>>}
	 */
	async executionsOf(workflowId) {
		const rows = await this.sql(
			'SELECT id, status, finished, mode FROM execution_entity WHERE "workflowId" = $1 ORDER BY id',
			[workflowId],
		);
		return rows.map((row) => ({ ...row, id: String(row.id) }));
	}

	/**
	 * One execution with its run data, through main's REST API (n8n unflattens it).
	 * @param {string} executionId
	 * @returns {Promise<{ status: string, finished: boolean, data: any }>}
	 */
	async execution(executionId) {
		const execution = await this.mainProcess.rest('GET', `/rest/executions/${executionId}`);
		const flatted = createRequire(
			join(this.run.install.n8nDir, 'node_modules', 'n8n', 'package.json'),
		)('flatted');
		return {
			status: execution.status,
			finished: execution.finished,
			data: typeof execution.data === 'string' ? flatted.parse(execution.data) : execution.data,
		};
	}

	/**
	 * Wait until an execution reaches one of `statuses`.
	 * @param {string} executionId
	 * @param {{ statuses?: string[], timeoutMs?: number }} [options] default: any terminal status
	 * @returns {Promise<{ status: string, finished: boolean, data: any }>}
	 * @throws {Error} with the status history when it does not get there in time
	 */
	async waitForExecution(executionId, options = {}) {
		const statuses = options.statuses ?? ['success', 'error', 'crashed', 'canceled'];
		const deadline = Date.now() + (options.timeoutMs ?? 120_000);
		/** @type {string[]} */
		const seen = [];
		for (;;) {
			const [row] = await this.sql('SELECT status FROM execution_entity WHERE id = $1', [
				Number(executionId),
			]);
			const status = row?.status ?? '(none)';
			if (seen.at(-1) !== status) seen.push(status);
			if (statuses.includes(status)) return this.execution(executionId);
			if (Date.now() > deadline)
				throw new Error(
					`execution ${executionId} did not reach ${statuses.join('|')} (statuses seen: ${seen.join(' → ')})`,
				);
			await sleep(250);
		}
	}

	/**
	 * Bytes of the stored run data (`execution_data.data`, n8n's flatted JSON) of an execution.
	 * @param {string} executionId
	 * @returns {Promise<number>}
	 */
	async storedDataBytes(executionId) {
		const [row] = await this.sql(
			'SELECT octet_length(data) AS bytes FROM execution_data WHERE "executionId" = $1',
			[Number(executionId)],
		);
		if (!row) throw new Error(`no execution_data row for execution ${executionId}`);
		return Number(row.bytes);
	}

	/**
	 * Which worker took which job of an execution, in log order: every worker logs
	 * "Worker started execution <id> (job <job>)" when it takes a job (job-processor.js).
	 * @param {string} executionId
	 * @returns {Array<{ worker: string, job: string, finished: boolean }>}
	 */
	jobsOf(executionId) {
		/** @type {Array<{ worker: string, job: string, finished: boolean, at: number }>} */
		const jobs = [];
		for (const worker of this.workers) {
			const text = worker.serverLogText();
			for (const match of text.matchAll(
				new RegExp(`Worker started execution ${executionId} \\(job (\\d+)\\)`, 'g'),
			)) {
				const finished = text.includes(
					`Worker finished execution ${executionId} (job ${match[1]})`,
				);
				jobs.push({ worker: worker.name, job: match[1], finished, at: Number(match[1]) });
			}
		}
		return jobs.sort((a, b) => a.at - b.at).map(({ at: _at, ...job }) => job);
	}

	/**
	 * Wait until some worker logged that it took a job of the execution.
	 * @param {string} executionId
	 * @param {number} [count] how many jobs
	 * @param {number} [timeoutMs]
	 * @returns {Promise<Array<{ worker: string, job: string, finished: boolean }>>}
	 */
	async waitForJobs(executionId, count = 1, timeoutMs = 60_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const jobs = this.jobsOf(executionId);
			if (jobs.length >= count) return jobs;
			if (Date.now() > deadline)
				throw new Error(
					`no worker logged ${count} job(s) of execution ${executionId} within ${timeoutMs / 1000} s (seen: ${JSON.stringify(jobs)})`,
				);
			await sleep(200);
		}
	}

	/**
	 * Text of main's log.
	 * @returns {string}
	 */
	mainLog() {
		return readFileSync(this.mainProcess.serverLog, 'utf8');
	}

	/**
	 * Stop workers, main, Redis and Postgres; delete their folders unless `keep`.
	 * @param {boolean} [keep]
	 * @returns {Promise<string[]>} kept folders
	 */
	async stop(keep = false) {
		/** @type {string[]} */
		const kept = [];
		const note = (/** @type {string | undefined} */ folder) => folder && kept.push(folder);
		await Promise.all(
			this.workers.map(async (worker) => note(await worker.dispose(keep).catch(() => undefined))),
		);
		if (this.main) note(await this.main.dispose(keep).catch(() => undefined));
		note(await this.redis.stop(keep).catch(() => undefined));
		note(await this.postgres.stop(keep).catch(() => undefined));
		return kept;
	}
}
