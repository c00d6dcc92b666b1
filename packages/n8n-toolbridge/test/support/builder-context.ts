/**
 * What the builder tests share: one standalone host (with the test fixture package) and one
 * node catalog per test file. n8n's LangChain descriptions come from the installed package
 * when there is one, else from the builder's cache (TOOLBRIDGE_CACHE_DIR, else
 * ~/.cache/toolbridge); a machine that has neither fetches the 1.8 MB tarball once with npm, as
 * `toolbridge build` would.
 */
import { StandaloneHost } from 'n8n-nodes-toolbridge';
import { builderCacheDir } from '../../src/builder/catalog/langchain-package';
import { NodeCatalog } from '../../src/builder/catalog/node-catalog';
import { repoRoot } from './toolbridge-process';

/** The fixture community package (one node, Text Stats). */
export const fixturePackage = `${repoRoot}/fixtures/packages/n8n-nodes-toolbridge-fixture`;

/** The cache the tests read LangChain's descriptions from (shared with the CLI processes they start). */
export const testCacheDir = builderCacheDir(process.env);

let context: Promise<{ host: StandaloneHost; catalog: NodeCatalog }> | undefined;

/** The host and catalog of this test file (made once). */
export function builderContext(): Promise<{ host: StandaloneHost; catalog: NodeCatalog }> {
	context ??= (async () => {
		const host = await StandaloneHost.create({ packageDirs: [fixturePackage], env: {} });
		const catalog = await NodeCatalog.load({
			host,
			langChain: { cacheDir: testCacheDir, packageDirs: [fixturePackage] },
		});
		return { host, catalog };
	})();
	return context;
}

/** Code as a model answers it: a sentence, then one fenced block. */
export function answer(code: string): string {
	return `Here is the workflow.\n\n\`\`\`javascript\n${code.trim()}\n\`\`\``;
}
