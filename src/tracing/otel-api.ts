import { createRequire } from 'node:module';
import type * as OpenTelemetryApi from '@opentelemetry/api';

/** Where `@opentelemetry/api` 1.x keeps what an SDK registered (shared by every copy of the api). */
const globalKey = Symbol.for('opentelemetry.js.api.1');

let loaded: typeof OpenTelemetryApi | null | undefined;

/**
 * `@opentelemetry/api`, but only when an OpenTelemetry SDK has registered a tracer provider
 * in this process (the CLI with `--otel-endpoint`, n8n with its tracing on, an application's
 * own SDK): otherwise undefined, without loading the package, so tracing costs nothing. The
 * package is an optional peer of this one: inside n8n it is n8n's own copy (a second copy of
 * a newer minor would get a no-op tracer); when it cannot be loaded, nothing is traced.
 */
export function otelApiIfRegistered(): typeof OpenTelemetryApi | undefined {
	const registered = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[globalKey];
	if (registered?.trace === undefined) return undefined;
	if (loaded === undefined) {
		try {
			loaded = createRequire(__filename)('@opentelemetry/api') as typeof OpenTelemetryApi;
		} catch {
			loaded = null;
		}
	}
	return loaded ?? undefined;
}
