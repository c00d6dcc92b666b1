import { serverOptions } from './option-specs';
import { UsageError } from '../errors/usage-error';

export { serverOptions };

/** Help lines for {@link serverOptions}. */
export const serverOptionsHelp = `  --token T            clients must send "Authorization: Bearer T" (compared in constant
                       time); TOOLBRIDGE_TOKEN also works. Required to listen beyond
                       127.0.0.1 / ::1 (else the server refuses to start, exit 2)
  --allow-origin URL   a browser origin allowed besides loopback ones (repeatable);
                       other Origin headers get 403
  --max-concurrency N  requests handled at once; more get 429 with Retry-After`;

/** Help line of `--allow-private-network`. */
export const privateNetworkHelp = `  --allow-private-network
                       let tools whose URL the model chooses ($fromAI in a url, endpoint
                       or host parameter) reach loopback, private, link-local and cloud
                       metadata addresses; refused by default`;

/** The token from `--token` or `TOOLBRIDGE_TOKEN` (never printed). */
export function tokenFrom(
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
): string | undefined {
	const token = (values.token as string | undefined) ?? env.TOOLBRIDGE_TOKEN;
	return token === '' ? undefined : token;
}

/**
 * `--max-concurrency` as a positive integer, or the default.
 * @throws {UsageError} for anything else.
 */
export function maxConcurrencyFrom(values: Record<string, unknown>, fallback: number): number {
	const text = values['max-concurrency'] as string | undefined;
	if (text === undefined) return fallback;
	const value = Number(text);
	if (!Number.isInteger(value) || value < 1)
		throw new UsageError(`--max-concurrency must be a positive integer, not "${text}".`);
	return value;
}

/** Resolves on SIGINT or SIGTERM (Ctrl-C, a service manager), once. */
export function untilShutdown(): Promise<NodeJS.Signals> {
	return new Promise((resolve) => {
		const stop = (signal: NodeJS.Signals) => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			resolve(signal);
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});
}

/**
 * After a server stopped: node runs still in flight (a stalled API, a keep-alive socket) must
 * not keep the process alive; give output a moment to flush, then exit.
 */
export function exitSoonAfterShutdown(code: number, graceMs = 1000): void {
	setTimeout(() => process.exit(code), graceMs).unref();
}
