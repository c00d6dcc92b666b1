/**
 * The house rule of docs/architecture.md: imports point only down the pipeline
 * (errors < from-ai < schema < tools < chat < agent < tracing < node-settings < langchain < hosts), and down
 * the floors inside each host and inside the standalone package; `agent/` touches neither n8n
 * nor LangChain, `node-settings/` no n8n context, the two hosts never lean on each other,
 * nothing in `src/` imports the node files, and no two files import each other in a loop
 * (types included).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(__dirname, '../..');
// tracing/ (OpenTelemetry spans of agent runs) sits between agent/ and hosts/: both hosts wrap
// their runs with it, and it reads only the loop's types and @opentelemetry/api. node-settings/
// (the agent and model nodes' parameter readers, over plain getters) is what both hosts read
// their nodes with.
const layers = [
	'errors',
	'from-ai',
	'schema',
	'tools',
	'chat',
	'agent',
	'tracing',
	'node-settings',
	'langchain',
	'hosts',
] as const;

/**
 * A folder whose rooms (its sub-folders, `name/`, and its own files, `name.ts`) are stacked in
 * floors, lowest first: a file imports only from its own floor and the floors below. `*` on a
 * floor takes the folder's own files no other floor names.
 */
interface Building {
	folder: string;
	floors: string[][];
}

/** The floors of docs/architecture.md, "Inside the hosts" and "The standalone package". */
const buildings: Building[] = [
	{
		folder: 'src/hosts/n8n',
		floors: [
			['binary/', 'output/'],
			['langchain/'],
			['chat-model/'],
			['item-run/'],
			['memory/'],
			['engine/'],
			['drivers/'],
		],
	},
	{
		folder: 'src/hosts/standalone',
		floors: [
			['*'],
			['task-runner/', 'sub-workflows/'],
			['standalone-host.ts', 'additional-data.ts'],
			['sub-nodes/'],
			['agent-tools/'],
			['workflow/'],
			['session/'],
			['load-workflow-tools.ts', 'run-workflow-agent.ts'],
		],
	},
	{
		folder: 'packages/n8n-toolbridge/src',
		floors: [
			['package-version.ts', 'errors/'],
			['http/', 'store/'],
			['network/'],
			['mcp/'],
			['openai/'],
			['builder/'],
			['telemetry/'],
			['cli/'],
			['index.ts'],
		],
	},
];

/** The building `file` is in, and its floor there; undefined outside every building. */
function floorOf(file: string): { building: Building; floor: number } | undefined {
	const building = buildings.find((candidate) =>
		file.startsWith(join(repo, candidate.folder) + '/'),
	);
	if (!building) return undefined;
	const path = relative(join(repo, building.folder), file);
	const room = path.includes('/') ? `${path.split('/')[0]}/` : path;
	let floor = building.floors.findIndex((rooms) => rooms.includes(room));
	if (floor === -1 && !path.includes('/'))
		floor = building.floors.findIndex((rooms) => rooms.includes('*'));
	if (floor === -1)
		throw new Error(`${building.folder}/${room} is on no floor; add it to the floors`);
	return { building, floor };
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((entry) => {
		const path = join(folder, entry);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const importPattern =
	/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

/** Every module specifier a file names in import/export/require/import(), side-effect imports included. */
function specifiersOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [...text.matchAll(importPattern)].map(
		(match) => match[1] ?? match[2] ?? match[3] ?? match[4],
	);
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
	...sourceFiles(join(repo, 'packages/n8n-toolbridge/src')),
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
const inPackage = (file: string) =>
	file.startsWith(join(repo, 'packages/n8n-toolbridge/src') + '/');
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
			.filter(([file]) => !inSrc(file) && !inPackage(file))
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

	it.each([
		['src/hosts/n8n/', 'src/hosts/standalone/'],
		['src/hosts/standalone/', 'src/hosts/n8n/'],
	])('%s does not import %s (both read their nodes through node-settings/)', (from, to) => {
		const wrong = [...graph]
			.filter(([file]) => name(file).startsWith(from))
			.flatMap(([file, targets]) =>
				targets
					.filter((target) => name(target).startsWith(to))
					.map((target) => `${name(file)} → ${name(target)}`),
			);
		expect(wrong).toEqual([]);
	});

	it.each(buildings.map((building) => [building.folder, building]))(
		'inside %s, imports point only down its floors',
		(_folder, building) => {
			const upward: string[] = [];
			for (const [file, targets] of graph) {
				const from = floorOf(file);
				if (from?.building !== building) continue;
				for (const target of targets) {
					const to = floorOf(target);
					if (to?.building === building && to.floor > from.floor)
						upward.push(`${name(file)} → ${name(target)}`);
				}
			}
			expect(upward).toEqual([]);
		},
	);

	it('node-settings/ reads nodes through plain getters: no n8n context types', () => {
		const wrong = files
			.filter((file) => name(file).startsWith('src/node-settings/'))
			.filter((file) => /\bI\w+Functions\b/.test(readFileSync(file, 'utf8')))
			.map(name);
		expect(wrong).toEqual([]);
	});

	it('no n8n context is faked in src/ (`as unknown as I…Functions`)', () => {
		const wrong = files
			.filter((file) => /\bas unknown as I\w+Functions\b/.test(readFileSync(file, 'utf8')))
			.map(name);
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
