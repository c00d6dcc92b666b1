#!/usr/bin/env node
// @ts-check
/**
 * `npm run n8n:local`: start the e2e's cached n8n 2.41 with this package installed the
 * way n8n installs community packages, for manual use in the browser.
 *
 * State (workflows, credentials, owner account) persists in
 * `${TOOLBRIDGE_E2E_CACHE:-~/.cache/toolbridge-e2e}/local-n8n/`; the package is rebuilt and
 * reinstalled on every start. Port: N8N_PORT or 5678. `--no-build` skips `npm run build`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { installPackageLikeN8n } from './lib/install-package.mjs';
import { N8nInstance } from './lib/n8n-instance.mjs';
import { buildAndPack } from './lib/pack-package.mjs';
import { cacheRoot, provision } from './lib/provision.mjs';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const install = await provision({ log: (line) => console.log(line) });
const folder = join(cacheRoot(), 'local-n8n');
mkdirSync(folder, { recursive: true });
const port = Number(process.env.N8N_PORT ?? 5678);
const n8n = new N8nInstance(install, {
	folder,
	port,
	logLevel: process.env.N8N_LOG_LEVEL ?? 'info',
});
await n8n.choosePorts();
const logDir = mkdtempSync(join(tmpdir(), 'toolbridge-local-n8n-'));
const installed = await installPackageLikeN8n({
	repoDir,
	nodesDir: n8n.nodesDir,
	pathWithNode: install.pathWithNode,
	nodeDir: install.nodeDir,
	logPath: join(logDir, 'install.log'),
	tarball: (await buildAndPack({ repoDir, logDir, build: !process.argv.includes('--no-build') }))
		.tarball,
});
console.log(`installed ${installed.name}@${installed.version} into ${installed.packageDir}`);
console.log(`n8n ${install.n8nBin} — open ${n8n.baseUrl} (Ctrl+C stops it)`);
const child = spawn(install.nodeBin, [install.n8nBin, 'start'], {
	env: n8n.env(),
	cwd: folder,
	stdio: 'inherit',
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
	process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 0)));
