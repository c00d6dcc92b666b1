import { PEERS, PeerDependencyError } from '../errors/peer-dependency-error';

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
	if (missing.length > 0) throw new PeerDependencyError(missing);
}
