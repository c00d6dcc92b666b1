/**
 * LangChain's node descriptions without the package installed: `findLangChainPackage` fetches
 * its tarball with `npm pack` (npm's own client, against a loopback registry here), keeps only
 * the descriptions, type definitions and license in the cache, reads the cache next time, and
 * says how to install the package when it cannot fetch.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	findLangChainPackage,
	LANGCHAIN_PACKAGE,
} from '../../src/builder/catalog/langchain-package';
import { NodeDescriptionsError } from '../../src/builder/catalog/node-descriptions-error';

const version = '9.9.9';
let registry: { url: string; server: Server; requests: string[] };
let scratch: string;

/** A registry that knows one version of the package: a made-up description, a script that must not be kept. */
async function startRegistry(tarball: Buffer): Promise<typeof registry> {
	const requests: string[] = [];
	const server = createServer((request, response) => {
		requests.push(request.url ?? '');
		const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		if (request.url?.endsWith('.tgz')) {
			response.writeHead(200, { 'content-type': 'application/octet-stream' });
			response.end(tarball);
			return;
		}
		if (decodeURIComponent(request.url ?? '').includes(LANGCHAIN_PACKAGE)) {
			const manifest = {
				name: LANGCHAIN_PACKAGE,
				version,
				dist: {
					tarball: `${base}/n8n-nodes-langchain-${version}.tgz`,
					shasum: createHash('sha1').update(tarball).digest('hex'),
					integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
				},
			};
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					name: LANGCHAIN_PACKAGE,
					'dist-tags': { latest: version },
					versions: { [version]: manifest },
				}),
			);
			return;
		}
		response.writeHead(404).end('{}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, requests };
}

function npmEnv(registryUrl: string): NodeJS.ProcessEnv {
	return {
		...process.env,
		npm_config_registry: registryUrl,
		npm_config_cache: join(scratch, 'npm-cache'),
		npm_config_fetch_retries: '0',
		npm_config_update_notifier: 'false',
	};
}

beforeAll(async () => {
	scratch = mkdtempSync(join(tmpdir(), 'toolbridge-langchain-'));
	const source = join(scratch, 'source');
	mkdirSync(join(source, 'package/dist/types'), { recursive: true });
	mkdirSync(join(source, 'package/dist/node-definitions/nodes/n8n-nodes-langchain/fake'), {
		recursive: true,
	});
	writeFileSync(
		join(source, 'package/package.json'),
		JSON.stringify({ name: LANGCHAIN_PACKAGE, version }),
	);
	writeFileSync(join(source, 'package/LICENSE.md'), 'license text');
	writeFileSync(
		join(source, 'package/dist/types/nodes.json'),
		JSON.stringify([{ name: 'fake', displayName: 'Fake', version: 1, properties: [] }]),
	);
	writeFileSync(
		join(source, 'package/dist/node-definitions/nodes/n8n-nodes-langchain/fake/v1.ts'),
		'export {}',
	);
	writeFileSync(join(source, 'package/dist/Agent.node.js'), 'throw new Error("not kept")');
	const file = join(scratch, 'package.tgz');
	await create({ gzip: true, cwd: source, file, portable: true }, ['package']);
	registry = await startRegistry(readFileSync(file));
});

afterAll(async () => {
	await new Promise((resolve) => registry?.server.close(resolve));
	rmSync(scratch, { recursive: true, force: true });
});

describe('findLangChainPackage', () => {
	it('fetches the tarball once with npm, keeps only descriptions, definitions and license, then reads the cache', async () => {
		const cacheDir = join(scratch, 'cache');
		const notices: string[] = [];
		const fetched = await findLangChainPackage({
			version,
			cacheDir,
			nodeModulesDirs: [],
			env: npmEnv(registry.url),
			onNotice: (line) => notices.push(line),
		});
		expect(fetched.source).toBe('fetched');
		expect(fetched.dir).toBe(join(cacheDir, `n8n-nodes-langchain-${version}`));
		expect(
			JSON.parse(readFileSync(join(fetched.dir, 'dist/types/nodes.json'), 'utf8'))[0].name,
		).toBe('fake');
		expect(existsSync(join(fetched.dir, 'LICENSE.md'))).toBe(true);
		expect(
			existsSync(join(fetched.dir, 'dist/node-definitions/nodes/n8n-nodes-langchain/fake/v1.ts')),
		).toBe(true);
		expect(existsSync(join(fetched.dir, 'dist/Agent.node.js'))).toBe(false);
		expect(notices.join('\n')).toMatch(
			/Fetched the node descriptions of @n8n\/n8n-nodes-langchain@9\.9\.9.*npm install --ignore-scripts @n8n\/n8n-nodes-langchain@9\.9\.9/s,
		);
		expect(registry.requests.some((url) => url.endsWith('.tgz'))).toBe(true);

		const requestsBefore = registry.requests.length;
		const cached = await findLangChainPackage({
			version,
			cacheDir,
			nodeModulesDirs: [],
			env: npmEnv(registry.url),
		});
		expect(cached).toEqual({ ...fetched, source: 'cache' });
		expect(registry.requests.length).toBe(requestsBefore);
	}, 60_000);

	it('prefers an installed copy (a --package folder) and fetches nothing', async () => {
		const installed = join(scratch, 'source/package');
		const found = await findLangChainPackage({
			version,
			packageDirs: [installed],
			cacheDir: join(scratch, 'unused'),
			env: npmEnv('http://127.0.0.1:1/'),
		});
		expect(found).toEqual({ dir: installed, version, source: 'installed' });
	});

	it('offline: an error that says how to install the package', async () => {
		const error = await findLangChainPackage({
			version,
			cacheDir: join(scratch, 'offline'),
			nodeModulesDirs: [],
			env: npmEnv('http://127.0.0.1:1/'),
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeDescriptionsError);
		expect((error as NodeDescriptionsError).code).toBe('NODE_DESCRIPTIONS_UNAVAILABLE');
		expect((error as Error).message).toMatch(
			/npm install --ignore-scripts @n8n\/n8n-nodes-langchain@9\.9\.9/,
		);
		expect(existsSync(join(scratch, 'offline', `n8n-nodes-langchain-${version}`))).toBe(false);
	}, 60_000);

	it('fetch: false never calls npm', async () => {
		await expect(
			findLangChainPackage({
				version,
				cacheDir: join(scratch, 'none'),
				nodeModulesDirs: [],
				fetch: false,
			}),
		).rejects.toThrow(/neither installed nor cached.*npm install --ignore-scripts/);
	});
});
