import { createRequire } from 'node:module';
import type * as N8nCore from 'n8n-core';
import { ensureStandaloneInstanceSettings } from './instance-settings';
import { quietErrorReporter } from './quiet-error-reporter';
import { routeN8nLogsToStderr } from './n8n-logs-to-stderr';
import { nameCredentialErrors } from './name-credential-errors';
import { installRunExpressionKeys } from './run-expression-keys';

let core: typeof N8nCore | undefined;

/**
 * n8n-core's execution engine, loaded when the first node runs and set up for the standalone
 * host then (in-memory instance settings, a quiet error reporter, n8n's logs on stderr,
 * credential errors that name the node and the credential, a run's own expression variables). Listing a workflow's tools needs
 * only n8n-core's package loaders; its full index (execution engine, outbound
 * HTTP, SSH, …) is about half the start-up time of `toolbridge tools`.
 */
export function n8nCoreRuntime(): typeof N8nCore {
	if (core) return core;
	const loaded = createRequire(__filename)('n8n-core') as typeof N8nCore;
	ensureStandaloneInstanceSettings(loaded.InstanceSettings);
	quietErrorReporter(loaded.ErrorReporter);
	routeN8nLogsToStderr();
	nameCredentialErrors(loaded);
	installRunExpressionKeys(loaded);
	core = loaded;
	return core;
}
