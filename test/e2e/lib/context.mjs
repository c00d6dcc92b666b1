// @ts-check
/**
 * What a scenario gets: the provisioned install, n8n instances with our package
 * installed the community-package way, fake model servers, and cleanup of all of them.
 */
import { join } from 'node:path';

import { fakeServerAvailable, loadFakeChatServer } from './fake-model.mjs';
import { installPackageLikeN8n } from './install-package.mjs';
import { N8nInstance } from './n8n-instance.mjs';
import { nodeErrors, openRouterCredential, runError } from './workflows.mjs';

/**
 * @typedef {import('./provision.mjs').Provisioned} Provisioned
 * @typedef {{ name: string, version: string, packageDir: string, tarball: string, dependencies: string[] }} InstalledPackage
 */

/**
 * Shared state of one e2e run.
 */
export class RunContext {
	/**
	 * @param {{ install: Provisioned, repoDir: string, tarball: string, logDir: string }} options
	 */
	constructor(options) {
		this.install = options.install;
		this.repoDir = options.repoDir;
		this.tarball = options.tarball;
		this.logDir = options.logDir;
		/** @type {N8nInstance | undefined} */
		this.sharedCli = undefined;
		/** @type {any} */
		this.fakeModule = undefined;
		/** Set when a scenario failed: the shared instance's folder is kept. */
		this.anyFailure = false;
	}

	/** Whether test/support/fake-chat-server.ts exists. */
	get hasFakeServer() {
		return fakeServerAvailable();
	}

	/**
	 * The fake chat server module (loaded once).
	 * @returns {Promise<any>}
	 * @throws {Error} when it is missing
	 */
	async fake() {
		this.fakeModule ??= await loadFakeChatServer();
		return this.fakeModule;
	}

	/**
	 * A new n8n instance with our package installed as n8n installs community packages.
	 * @param {string} name
	 * @param {ConstructorParameters<typeof N8nInstance>[1]} [options]
	 * @returns {Promise<{ n8n: N8nInstance, installed: InstalledPackage }>}
	 * @throws {Error} when the install fails or duplicates landed
	 */
	async newN8n(name, options = {}) {
		const n8n = new N8nInstance(this.install, { name, ...options });
		const installed = await installPackageLikeN8n({
			repoDir: this.repoDir,
			nodesDir: n8n.nodesDir,
			pathWithNode: this.install.pathWithNode,
			nodeDir: this.install.nodeDir,
			logPath: join(n8n.logDir, 'package-install.log'),
			tarball: this.tarball,
		});
		return { n8n, installed };
	}

	/**
	 * The instance shared by CLI-only scenarios (`import` + `execute`), created on first use.
	 * Scenarios give their workflows and credentials distinct ids.
	 * @returns {Promise<N8nInstance>}
	 */
	async cliN8n() {
		if (!this.sharedCli) this.sharedCli = (await this.newN8n('cli')).n8n;
		return this.sharedCli;
	}

	/**
	 * Dispose everything this run created.
	 * @returns {Promise<void>}
	 */
	async dispose() {
		const kept = await this.sharedCli?.dispose(this.anyFailure);
		if (kept) console.log(`   shared n8n folder kept: ${kept}`);
		this.sharedCli = undefined;
	}
}

/**
 * Per-scenario resources, all released by `cleanup()` whatever happened.
 */
export class ScenarioScope {
	/**
	 * @param {RunContext} run
	 * @param {string} id scenario id (used for workflow/credential ids)
	 */
	constructor(run, id) {
		this.run = run;
		this.id = id;
		/** @type {Array<(keep: boolean) => Promise<void>>} */
		this.cleanups = [];
		/** @type {string[]} */
		this.notes = [];
	}

	/**
	 * Start a fake chat server whose `respond` is wrapped: an exception thrown while
	 * checking a request (e.g. a schema assertion) is recorded and answered with HTTP 400,
	 * and `failures` lets the scenario re-throw it.
	 * @param {(request: any, fake: any) => any} respond
	 * @returns {Promise<{ baseUrl: string, requests: any[], failures: Error[], close: () => Promise<void>, assertNoFailures: () => void }>}
	 */
	async startFake(respond) {
		const fake = await this.run.fake();
		/** @type {Error[]} */
		const failures = [];
		const server = await fake.startFakeChatServer({
			respond: async (/** @type {any} */ request) => {
				try {
					return await respond(request, fake);
				} catch (error) {
					failures.push(/** @type {Error} */ (error));
					return fake.errorReply(
						400,
						`fake model rejected request ${request.index}: ${/** @type {Error} */ (error).message}`,
					);
				}
			},
		});
		this.cleanups.push(() => server.close());
		return {
			baseUrl: server.baseUrl,
			requests: server.requests,
			failures,
			close: () => server.close(),
			assertNoFailures() {
				if (failures.length > 0) throw failures[0];
			},
		};
	}

	/**
	 * Import a workflow and its credential into the run's shared CLI instance, `n8n execute` it
	 * and return the parsed run result. The credential is an OpenRouter one pointing at `fake`
	 * unless one is given.
	 * @param {object} options
	 * @param {{ baseUrl: string, failures: Error[] }} options.fake
	 * @param {(credential: { id: string, name: string }) => Record<string, unknown>} options.build the workflow
	 * @param {string} [options.suffix] distinguishes several credentials of one scenario
	 * @param {{ id: string, name: string, type: string, data: Record<string, unknown> }} [options.credential]
	 * @returns {Promise<any>}
	 * @throws {Error} when n8n reports the execution as failed (a request the fake rejected first:
	 *   it says why)
	 */
	async importAndExecute({ fake, build, suffix = '', credential }) {
		const n8n = await this.run.cliN8n();
		const imported =
			credential ?? openRouterCredential(`cred-${this.id}${suffix}`.slice(0, 21), fake.baseUrl);
		await n8n.importCredentials([imported]);
		const id = await n8n.importWorkflow(build({ id: imported.id, name: imported.name }));
		const run = await n8n.execute(id);
		if (!run.ok) {
			const rejected =
				fake.failures.length > 0
					? `the fake model rejected a request: ${fake.failures[0].message}\n`
					: '';
			const message = run.result ? (runError(run.result) ?? nodeErrors(run.result)) : undefined;
			throw new Error(
				`${rejected}n8n execute failed: ${message ?? '(no error in output)'} (log ${run.logPath})\n${run.stdout.slice(-1500)}`,
			);
		}
		return run.result;
	}

	/**
	 * A dedicated n8n instance (for `n8n start` scenarios), disposed after the scenario.
	 * @param {ConstructorParameters<typeof N8nInstance>[1]} [options]
	 * @returns {Promise<{ n8n: N8nInstance, installed: InstalledPackage }>}
	 */
	async newN8n(options = {}) {
		const created = await this.run.newN8n(this.id, options);
		this.cleanups.push(async (keep) => {
			const kept = await created.n8n.dispose(keep);
			if (kept) this.note(`n8n folder kept: ${kept}`);
		});
		return created;
	}

	/**
	 * Add a note printed after the scenario's result line.
	 * @param {string} note
	 */
	note(note) {
		this.notes.push(note);
	}

	/**
	 * Release everything (in reverse order), never throwing.
	 * @param {boolean} [keep] keep n8n folders (the scenario failed)
	 * @returns {Promise<void>}
	 */
	async cleanup(keep = false) {
		for (const cleanup of this.cleanups.reverse()) {
			try {
				await cleanup(keep);
			} catch {
				// best effort
			}
		}
	}
}
