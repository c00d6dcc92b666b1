/**
 * The house rule of docs/architecture.md: imports point only down the pipeline
 * (errors < from-ai < schema < tools < chat < agent < tracing < hosts < cli), `agent/` touches neither
 * n8n nor LangChain, `hosts/n8n` does not lean on `hosts/standalone`, nothing in `src/` imports
 * the node files, and no two files import each other in a loop (types included).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(__dirname, '../..');
// tracing/ (OpenTelemetry spans of agent runs) sits between agent/ and hosts/: both hosts wrap
// their runs with it, and it reads only the loop's types and @opentelemetry/api.
const layers = [
	'errors',
	'from-ai',
	'schema',
	'tools',
	'chat',
	'agent',
	'tracing',
	'hosts',
	'cli',
] as const;

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((entry) => {
		const path = join(folder, entry);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const importPattern =
	/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a file names in import/export/require/import(). */
function specifiersOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [...text.matchAll(importPattern)].map((match) => match[1] ?? match[2] ?? match[3]);
}

function resolveRelative(file: string, specifier: string): string | undefined {
	const base = resolve(dirname(file), specifier);
	for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// try the next form
		}
	}
	return undefined;
}

/** `src/<layer>/…` → the layer's rank; `src/index.ts` sits above every layer. */
function rankOf(file: string): number {
	const path = relative(join(repo, 'src'), file);
	if (path === 'index.ts') return layers.length;
	const rank = layers.indexOf(path.split('/')[0] as (typeof layers)[number]);
	if (rank === -1) throw new Error(`src/${path} is in no layer; add its folder to the layer order`);
	return rank;
}

const files = [
	...sourceFiles(join(repo, 'src')),
	...sourceFiles(join(repo, 'nodes')),
	...sourceFiles(join(repo, 'credentials')),
];
const graph = new Map<string, string[]>();
for (const file of files) {
	graph.set(
		file,
		specifiersOf(file)
			.filter((specifier) => specifier.startsWith('.'))
			.map((specifier) => resolveRelative(file, specifier) ?? `${file} → unresolved ${specifier}`),
	);
}
const inSrc = (file: string) => file.startsWith(join(repo, 'src') + '/');
const name = (file: string) => relative(repo, file);

describe('import direction', () => {
	it('every relative import resolves', () => {
		const unresolved = [...graph.values()]
			.flat()
			.filter((target) => target.includes(' → unresolved '));
		expect(unresolved).toEqual([]);
	});

	it('src/ imports point only down the layer order, never into nodes/ or credentials/', () => {
		// The CLI, which composes the standalone host with this package's own node, lives in
		// packages/n8n-toolbridge and reaches the node through the built package.
		const upward: string[] = [];
		for (const [file, targets] of graph) {
			if (!inSrc(file)) continue;
			for (const target of targets) {
				if (!inSrc(target)) upward.push(`${name(file)} → ${name(target)} (outside src/)`);
				else if (rankOf(target) > rankOf(file)) upward.push(`${name(file)} → ${name(target)}`);
			}
		}
		expect(upward).toEqual([]);
	});

	it('nodes/ and credentials/ reach src/ only through hosts/n8n and the layers below it', () => {
		const wrong = [...graph]
			.filter(([file]) => !inSrc(file))
			.flatMap(([file, targets]) =>
				targets
					.filter(
						(target) =>
							inSrc(target) &&
							(rankOf(target) > layers.indexOf('hosts') ||
								name(target).startsWith('src/hosts/standalone/')),
					)
					.map((target) => `${name(file)} → ${name(target)}`),
			);
		expect(wrong).toEqual([]);
	});

	it('hosts/n8n does not import hosts/standalone', () => {
		const wrong = [...graph]
			.filter(([file]) => name(file).startsWith('src/hosts/n8n/'))
			.flatMap(([file, targets]) =>
				targets
					.filter((target) => name(target).startsWith('src/hosts/standalone/'))
					.map((target) => `${name(file)} → ${name(target)}`),
			);
		expect(wrong).toEqual([]);
	});

	it('agent/ imports neither n8n nor LangChain nor zod', () => {
		const wrong = files
			.filter((file) => name(file).startsWith('src/agent/'))
			.flatMap((file) =>
				specifiersOf(file)
					.filter((specifier) => /^(n8n-|@n8n\/|@langchain\/|langchain|zod)/.test(specifier))
					.map((specifier) => `${name(file)} → ${specifier}`),
			);
		expect(wrong).toEqual([]);
	});

	it("tracing/ imports no package but @opentelemetry/api (an optional peer: n8n's own copy inside n8n)", () => {
		const wrong = files
			.filter((file) => name(file).startsWith('src/tracing/'))
			.flatMap((file) =>
				specifiersOf(file)
					.filter(
						(specifier) =>
							!specifier.startsWith('.') &&
							!specifier.startsWith('node:') &&
							specifier !== '@opentelemetry/api',
					)
					.map((specifier) => `${name(file)} → ${specifier}`),
			);
		expect(wrong).toEqual([]);
	});

	it('has no import cycles', () => {
		const cycles: string[] = [];
		const state = new Map<string, 'open' | 'done'>();
		const stack: string[] = [];
		const visit = (file: string) => {
			state.set(file, 'open');
			stack.push(file);
			for (const target of graph.get(file) ?? []) {
				if (state.get(target) === 'open')
					cycles.push([...stack.slice(stack.indexOf(target)), target].map(name).join(' → '));
				else if (!state.has(target) && graph.has(target)) visit(target);
			}
			stack.pop();
			state.set(file, 'done');
		};
		for (const file of graph.keys()) if (!state.has(file)) visit(file);
		expect(cycles).toEqual([]);
	});
});
