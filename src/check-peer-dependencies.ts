import { PeerDependencyError } from './errors/peer-dependency-error';

/**
 * The module each optional peer is first required by (what `src/index.ts` loads), with the
 * version n8n 2.41.1 ships. n8n puts its own copies on the module path; outside n8n nothing
 * installs them.
 */
const PEERS: ReadonlyArray<{ name: string; entry: string; version: string }> = [
	{ name: 'zod', entry: 'zod', version: '3.25.76' },
	{ name: '@langchain/core', entry: '@langchain/core/tools', version: '1.2.8' },
	{ name: 'n8n-workflow', entry: 'n8n-workflow', version: '2.41.0' },
	{ name: 'n8n-core', entry: 'n8n-core', version: '2.41.1' },
];

/**
 * The peers `resolve` cannot find (only a missing module counts; any other resolution error
 * is not ours to report).
 */
export function findMissingPeers(resolve: (request: string) => string = require.resolve): string[] {
	return PEERS.filter(({ entry }) => {
		try {
			resolve(entry);
			return false;
		} catch (error) {
			return (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
		}
	}).map(({ name }) => name);
}

/**
 * Fails fast, before any module needs them, when n8n's libraries are not installed: a
 * {@link PeerDependencyError} naming what to install instead of a raw MODULE_NOT_FOUND.
 *
 * @throws {PeerDependencyError} when a peer is missing.
 */
export function assertPeerDependencies(resolve?: (request: string) => string): void {
	const missing = findMissingPeers(resolve);
	if (missing.length > 0) throw new PeerDependencyError(missing, Object.fromEntries(PEERS.map(({ name, version }) => [name, version])));
}
