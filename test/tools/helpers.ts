import { resolve } from 'node:path';
import { StandaloneHost } from '../../src/hosts/standalone/standalone-host';

/** The fixture community package (a second node package besides n8n-nodes-base). */
export const FIXTURE_PACKAGE = resolve(
	__dirname,
	'../../fixtures/packages/n8n-nodes-toolbridge-fixture',
);

/** Path of a fixture workflow export. */
export function workflowFixture(name: string): string {
	return resolve(__dirname, '../../fixtures/workflows', name);
}

let shared: Promise<StandaloneHost> | undefined;

/** One host per test file (package index loaded once), with the fixture package. */
export function sharedHost(): Promise<StandaloneHost> {
	shared ??= StandaloneHost.create({ packageDirs: [FIXTURE_PACKAGE], env: {} });
	return shared;
}
