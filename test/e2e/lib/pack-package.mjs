// @ts-check
/**
 * Build (optional) and `npm pack` this repo once per e2e run; every n8n instance installs
 * the same tarball the way n8n installs a community package (see install-package.mjs).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { runChecked } from './run-command.mjs';

/**
 * @param {{ repoDir: string, logDir: string, build: boolean }} options
 *   `logDir`: build.log, pack.log and the tarball (under pack/) go there
 * @returns {Promise<{ tarball: string, filename: string, entryCount: number }>}
 * @throws {Error} with the log tail when the build or the pack fails
 */
export async function buildAndPack(options) {
	const { repoDir, logDir } = options;
	if (options.build) {
		await runChecked('npm', ['run', 'build'], {
			cwd: repoDir,
			logPath: join(logDir, 'build.log'),
			timeoutMs: 10 * 60_000,
		});
	}
	mkdirSync(join(logDir, 'pack'), { recursive: true });
	const packed = await runChecked(
		'npm',
		['pack', '--json', '--ignore-scripts', `--pack-destination=${join(logDir, 'pack')}`],
		{
			cwd: repoDir,
			logPath: join(logDir, 'pack.log'),
		},
	);
	const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
	return {
		tarball: join(logDir, 'pack', info.filename),
		filename: info.filename,
		entryCount: info.entryCount,
	};
}
