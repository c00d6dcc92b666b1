import { createRequire } from 'node:module';
import type { ErrorReporter } from 'n8n-core';

let quieted = false;

/**
 * Stops n8n-core's `ErrorReporter` from logging every node error with its stack trace (its
 * default when Sentry is not set up). The standalone host hands node errors to the model as
 * observations and to the CLI as one message; a second, noisy copy on the console helps
 * nobody. Once per process.
 */
export function quietErrorReporter(ErrorReporterClass: typeof ErrorReporter): void {
	if (quieted) return;
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	const { Container } = requireFromCore('@n8n/di') as { Container: { get<T>(token: unknown): T } };
	// `report` is private in the typings; it is the one hook n8n-core itself swaps (Sentry).
	const reporter = Container.get<ErrorReporter>(ErrorReporterClass) as unknown as {
		report: (...args: unknown[]) => void;
	};
	reporter.report = () => {};
	quieted = true;
}
