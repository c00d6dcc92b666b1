#!/usr/bin/env node
// @ts-check
/**
 * The template corpus as a new user meets it: every workspace packed, the tarballs installed
 * into an empty folder (`npm install --ignore-scripts ./*.tgz`, as test/install does), then
 * `npx toolbridge tools <template> --json` for each template of fixtures/templates — once
 * with n8n-nodes-base only, once more after the LangChain add-on
 * (`npm install --ignore-scripts @n8n/n8n-nodes-langchain@<n8n-nodes-base version>`).
 * Prints the share that loads (exit 0) each time, and what stopped the others.
 *
 * Needs `npm run build` first, the npm registry and ~1.7 GB of disk; ~10 min on 2 cores.
 * Options: --keep (keep the temp folder), --user DIR (reuse an install made with --keep),
 * --json FILE (write the per-template results), --base-only.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const repo = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');
const templatesDir = join(repo, 'fixtures/templates');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const valueOf = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const reuse = valueOf('--user');
const work = reuse ? undefined : mkdtempSync(join(tmpdir(), 'toolbridge-corpus-'));
const user = reuse ?? join(/** @type {string} */ (work), 'user');

/** @param {string} command @param {string[]} args @param {string} cwd */
function run(command, args, cwd) {
	process.stdout.write(`$ ${command} ${args.join(' ')}\n`);
	const result = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, npm_config_update_notifier: 'false' },
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.status !== 0)
		throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
	return result.stdout;
}

/** Every template file, sorted. @param {string} dir @returns {string[]} */
function templates(dir) {
	return readdirSync(dir)
		.flatMap((entry) => {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) return templates(path);
			return entry.endsWith('.json') && entry !== 'corpus-index.json' ? [path] : [];
		})
		.sort();
}

/** `toolbridge tools <file> --json` in the user's folder. @param {string} file */
function toolsOf(file) {
	return new Promise((resolvePromise) => {
		const child = spawn('npx', ['--no-install', 'toolbridge', 'tools', file, '--json'], {
			cwd: user,
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (data) => (stdout += data));
		child.stderr.on('data', (data) => (stderr += data));
		child.on('close', (code) => {
			let tools = 0;
			try {
				tools = JSON.parse(stdout).length;
			} catch {
				// not a tool list: the reason is on stderr
			}
			resolvePromise({ code, tools, reason: code === 0 ? '' : classify(stderr) });
		});
	});
}

/** One short reason per failure. @param {string} stderr */
function classify(stderr) {
	const text = stderr.trim();
	const install = /Add the missing packages with: (.*)/.exec(text);
	if (install) return `missing package named, with its install command: ${install[1]}`;
	const missing = /package "([^"]+)" is not installed/.exec(text);
	if (missing) return `package not installed: ${missing[1]}`;
	const unavailable = /^\s*- (.*)$/m.exec(text);
	if (unavailable) return `cannot be served: ${unavailable[1].replace(/^"[^"]*" /, '')}`;
	if (/Several agents/.test(text)) return 'several agents: --agent needed';
	if (/\$fromAI problems/.test(text)) return '$fromAI problems';
	return text.split('\n')[0].slice(0, 160);
}

/** Runs `toolsOf` over every template, two at a time. @param {string} label */
async function pass(label) {
	const files = templates(templatesDir);
	/** @type {Array<{ template: string, code: number | null, tools: number, reason: string }>} */
	const results = new Array(files.length);
	let next = 0;
	const worker = async () => {
		while (next < files.length) {
			const index = next++;
			results[index] = {
				template: relative(templatesDir, files[index]),
				...(await toolsOf(files[index])),
			};
		}
	};
	await Promise.all([worker(), worker()]);
	const loaded = results.filter((result) => result.code === 0);
	const reasons = new Map();
	for (const result of results)
		if (result.code !== 0) reasons.set(result.reason, (reasons.get(result.reason) ?? 0) + 1);
	process.stdout.write(
		`\n${label}: ${loaded.length} of ${results.length} templates load with \`toolbridge tools\`\n`,
	);
	for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1]))
		process.stdout.write(`  ${String(count).padStart(3)}  ${reason}\n`);
	return results;
}

async function main() {
	if (!reuse) {
		mkdirSync(user, { recursive: true });
		const packs = join(/** @type {string} */ (work), 'packs');
		mkdirSync(packs);
		const packed = JSON.parse(
			run(
				'npm',
				[
					'pack',
					'--workspaces',
					'--include-workspace-root',
					'--json',
					`--pack-destination=${packs}`,
				],
				repo,
			),
		);
		run('npm', ['init', '-y'], user);
		run(
			'npm',
			[
				'install',
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				...packed.map((entry) => join(packs, entry.filename)),
			],
			user,
		);
	}
	const output = { base: await pass('n8n-nodes-base only'), withLangChain: undefined };
	if (!flag('--base-only')) {
		const baseVersion = JSON.parse(
			run('node', ['-p', "JSON.stringify(require('n8n-nodes-base/package.json').version)"], user),
		);
		if (!existsSync(join(user, 'node_modules/@n8n/n8n-nodes-langchain')))
			run(
				'npm',
				[
					'install',
					'--ignore-scripts',
					'--no-audit',
					'--no-fund',
					`@n8n/n8n-nodes-langchain@${baseVersion}`,
				],
				user,
			);
		output.withLangChain = await pass(`with @n8n/n8n-nodes-langchain@${baseVersion}`);
	}
	const jsonFile = valueOf('--json');
	if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(output, null, 1)}\n`);
}

main()
	.catch((error) => {
		process.stderr.write(`new-user corpus run FAILED: ${error.message}\n`);
		process.exitCode = 1;
	})
	.finally(() => {
		if (!work) return;
		if (flag('--keep')) process.stdout.write(`kept ${work}\n`);
		else rmSync(work, { recursive: true, force: true });
	});
