import { ToolbridgeError } from './toolbridge-error';

/** The standalone package that brings n8n's libraries along: what to install outside n8n. */
export const STANDALONE_PACKAGE_NAME = 'n8n-toolbridge';

/**
 * n8n's libraries (optional peers that n8n itself provides) are not installed: this package
 * was loaded outside n8n. The message names the package to install instead.
 */
export class PeerDependencyError extends ToolbridgeError {
	/** The peers that could not be resolved, e.g. `['zod', 'n8n-core']`. */
	readonly missing: string[];

	constructor(missing: string[], versions: Record<string, string>) {
		super(
			'PEER_DEPENDENCY_MISSING',
			`n8n-nodes-toolbridge is an n8n community package: it uses n8n's own copies of ${missing.join(', ')}, which are not installed here. ` +
				`Outside n8n, install ${STANDALONE_PACKAGE_NAME} instead (npm install ${STANDALONE_PACKAGE_NAME}): the same library and the toolbridge CLI, with n8n's libraries as dependencies. ` +
				`Or install the missing packages yourself: npm install ${missing.map((name) => `${name}@${versions[name]}`).join(' ')}`,
		);
		this.name = 'PeerDependencyError';
		this.missing = missing;
	}
}
