#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:e2e:queue`: the package on n8n's distributed engine (queue mode).
 *
 * 1. provision Node 24 + n8n (the cache of lib/provision.mjs), Postgres and Redis (apt-get when
 *    missing; lib/system-packages.mjs)
 * 2. build and `npm pack` this repo once
 * 3. start one topology for the run: throw-away Postgres + Redis on loopback, n8n main
 *    (EXECUTIONS_MODE=queue) and two `n8n worker` processes (lib/queue-topology.mjs)
 * 4. run the scenario table (queue/index.mjs); a scenario that killed a worker gets it restarted
 *    before the next one
 * 5. print one `PASS|FAIL|PENDING <id> — <title>` line per scenario, the state-size figures, and
 *    `N passed, N failed`; exit 1 on any failure
 *
 * Options: --only=<regex> (scenario ids), --no-build, --keep (keep folders and logs; also
 * TOOLBRIDGE_E2E_KEEP=1).
 */
import { join } from 'node:path';

import { RunContext } from './lib/context.mjs';
import { QueueTopology } from './lib/queue-topology.mjs';
import { runSuite } from './lib/run-suite.mjs';
import {
	packForRun,
	parseRunnerArgs,
	provisionForRun,
	repoDir,
	runMain,
	seconds,
} from './lib/runner.mjs';
import { ensureServerPrograms } from './lib/system-packages.mjs';
import { scenarios } from './queue/index.mjs';
import { QueueScope } from './queue/scope.mjs';

const { flag, only } = parseRunnerArgs();

runMain(() =>
	runSuite({
		title: '== toolbridge e2e (queue mode): main + 2 workers on Postgres and Redis',
		name: 'e2e-queue',
		scenarios,
		only,
		timeoutMs: 8 * 60_000,
		interruptNote: 'stopping n8n, Postgres and Redis …',
		async setup({ setupLog, log, onStop }) {
			const install = await provisionForRun(log);
			const programsStart = Date.now();
			const programs = await ensureServerPrograms({ log, logPath: join(setupLog, 'apt.log') });
			log(
				`Postgres programs ${programs.postgresBinDir}, ${programs.redisServer}${programs.installed.length ? ` (installed ${programs.installed.join(', ')})` : ''} in ${seconds(programsStart)}`,
			);
			const tarball = await packForRun({ logDir: setupLog, build: !flag('no-build'), log });
			const context = new RunContext({ install, repoDir, tarball, logDir: setupLog });
			/** @type {QueueTopology | undefined} */
			let topology;
			if (
				scenarios.some((scenario) => (!only || only.test(scenario.id)) && scenario.needsTopology)
			) {
				const started = new QueueTopology({ run: context, programs });
				topology = started;
				onStop((keep) => started.stop(keep));
				await started.start(log);
			}
			return {
				context,
				scopeFor: (scenario) => new QueueScope(context, scenario.id, topology, programs),
				// A scenario that killed a worker gets it restarted before the next one.
				async prepare(scenario, scope) {
					if (!scenario.needsTopology || !topology) return;
					const restarted = await topology.ensureWorkersRunning();
					if (restarted.length > 0)
						scope.note(`restarted before this scenario: ${restarted.join(', ')}`);
				},
			};
		},
		// The state-size figures; PENDING rows count as skipped in the closing line.
		figures: (scope) => /** @type {QueueScope} */ (scope).figures,
	}),
);
