import { describe, expect, it } from 'vitest';
import { PeerDependencyError } from '../../src/errors/peer-dependency-error';
import { assertPeerDependencies, findMissingPeers } from '../../src/hosts/assert-peer-dependencies';
import { ToolbridgeError } from '../../src/errors/toolbridge-error';

const notFound = (request: string): never => {
	throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
};

describe('peer dependencies outside n8n', () => {
	it('all installed (this repo): nothing missing', () => {
		expect(findMissingPeers()).toEqual([]);
		expect(() => assertPeerDependencies()).not.toThrow();
	});

	it('a missing peer is a ToolbridgeError naming n8n-toolbridge and the exact versions, not MODULE_NOT_FOUND', () => {
		const resolve = (request: string) =>
			request === 'zod' || request === 'n8n-core' ? notFound(request) : request;
		let thrown: unknown;
		try {
			assertPeerDependencies(resolve);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(PeerDependencyError);
		expect(ToolbridgeError.isInstance(thrown)).toBe(true);
		expect(thrown).toMatchObject({ code: 'PEER_DEPENDENCY_MISSING', missing: ['zod', 'n8n-core'] });
		expect((thrown as Error).message).toContain(
			'install n8n-toolbridge instead (npm install n8n-toolbridge)',
		);
		expect((thrown as Error).message).toContain('npm install zod@3.25.76 n8n-core@2.41.1');
	});

	it('other resolution errors are not reported as missing peers', () => {
		const resolve = (request: string): string => {
			throw Object.assign(new Error(`No "exports" main defined in ${request}`), {
				code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
			});
		};
		expect(findMissingPeers(resolve)).toEqual([]);
	});
});
