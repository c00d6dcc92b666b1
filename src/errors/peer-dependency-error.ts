import { ToolbridgeError } from './toolbridge-error';

/** The standalone package that brings n8n's libraries along: what to install outside n8n. */
export const STANDALONE_PACKAGE_NAME = 'n8n-toolbridge';

/**
 * The module each optional peer is first required by (what `src/index.ts` loads), with the
 * version n8n 2.41.1 ships. n8n puts its own copies on the module path; outside n8n nothing
 * installs them.
 */
export const PEERS: ReadonlyArray<{ name: string; entry: string; version: string }> = [
	{ name: 'zod', entry: 'zod', version: '3.25.76' },
	{ name: '@langchain/core', entry: '@langchain/core/tools', version: '1.2.8' },
	{ name: 'n8n-workflow', entry: 'n8n-workflow', version: '2.41.0' },
	{ name: 'n8n-core', entry: 'n8n-core', version: '2.41.1' },
];

/**
 * n8n's libraries (optional peers that n8n itself provides) are not installed: this package
 * was loaded outside n8n. The message names the package to install instead.
 */
export class PeerDependencyError extends ToolbridgeError {
	/** The peers that could not be resolved, e.g. `['zod', 'n8n-core']`. */
	readonly missing: string[];

	constructor(missing: string[]) {
		const versioned = missing.map(
			(name) => `${name}@${PEERS.find((peer) => peer.name === name)?.version ?? 'latest'}`,
		);
		super(
			'PEER_DEPENDENCY_MISSING',
			`n8n-nodes-toolbridge is an n8n community package: it uses n8n's own copies of ${missing.join(', ')}, which are not installed here. ` +
				`Outside n8n, install ${STANDALONE_PACKAGE_NAME} instead (npm install ${STANDALONE_PACKAGE_NAME}): the same library and the toolbridge CLI, with n8n's libraries as dependencies. ` +
				`Or install the missing packages yourself: npm install ${versioned.join(' ')}`,
		);
		this.name = 'PeerDependencyError';
		this.missing = missing;
	}
}
