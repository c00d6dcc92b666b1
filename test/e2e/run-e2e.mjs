#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:e2e`: the package in a real n8n 2.41.
 *
 * 1. provision Node 24 + n8n (cached outside the repo, keyed on versions; see lib/provision.mjs)
 * 2. build and `npm pack` this repo once
 * 3. run the scenario table (scenarios/index.mjs): each gets throw-away n8n instances with
 *    the package installed the way n8n installs community packages, and loopback fake models
 * 4. print one line per scenario and `N passed, N failed[, N skipped]`; exit 1 on any failure
 *
 * Options: --only=<regex> (scenario ids), --no-build, --provision-only, --keep (keep the temp
 * n8n folders; TOOLBRIDGE_E2E_KEEP=1 does the same). Cache: TOOLBRIDGE_E2E_CACHE.
 */
import { RunContext, ScenarioScope } from './lib/context.mjs';
import { runSuite } from './lib/run-suite.mjs';
import { packForRun, parseRunnerArgs, provisionForRun, repoDir, runMain } from './lib/runner.mjs';
import { scenarios } from './scenarios/index.mjs';

const { flag, only } = parseRunnerArgs();

runMain(() =>
	runSuite({
		title: '== toolbridge e2e: the package in a real n8n',
		name: 'e2e',
		scenarios,
		only,
		timeoutMs: 10 * 60_000,
		interruptNote: 'stopping n8n instances …',
		async setup({ setupLog, log }) {
			const install = await provisionForRun(log);
			if (flag('provision-only')) return undefined;
			const tarball = await packForRun({ logDir: setupLog, build: !flag('no-build'), log });
			const context = new RunContext({ install, repoDir, tarball, logDir: setupLog });
			return {
				context,
				scopeFor: (scenario) => new ScenarioScope(context, scenario.id),
				skip: (scenario) =>
					scenario.needs.includes('fake') && !context.hasFakeServer
						? 'missing: test/support/fake-chat-server.ts'
						: undefined,
			};
		},
	}),
);
