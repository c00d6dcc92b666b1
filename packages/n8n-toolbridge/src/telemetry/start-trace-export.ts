import { UsageError } from '../errors/usage-error';
import { PACKAGE_VERSION } from '../package-version';

/** A running OTLP trace export. */
export interface TraceExport {
	/** Where spans go. */
	url: string;
	/** Sends what is buffered and stops (before the process exits). Never throws. */
	shutdown(): Promise<void>;
}

/**
 * Where spans go: `--otel-endpoint URL` (the collector's base URL, `/v1/traces` appended, as
 * for the standard variable), else `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (as is), else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (+ `/v1/traces`); undefined when none is set, or with
 * `OTEL_SDK_DISABLED=true` / `OTEL_TRACES_EXPORTER=none`.
 *
 * @throws {UsageError} for an endpoint that is not an http(s) URL.
 */
export function traceExportUrl(
	endpoint: string | undefined,
	env: NodeJS.ProcessEnv,
): string | undefined {
	if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER === 'none')
		return undefined;
	const [base, source, asIs] =
		endpoint !== undefined
			? [endpoint, '--otel-endpoint', false]
			: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
				? [env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', true]
				: env.OTEL_EXPORTER_OTLP_ENDPOINT
					? [env.OTEL_EXPORTER_OTLP_ENDPOINT, 'OTEL_EXPORTER_OTLP_ENDPOINT', false]
					: [undefined, '', false];
	if (base === undefined || base === '') return undefined;
	let url: URL;
	try {
		url = new URL(base);
	} catch {
		url = new URL('invalid:');
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		throw new UsageError(
			`${source} must be the http(s) URL of an OTLP/HTTP collector (e.g. http://localhost:4318), not "${base}".`,
		);
	if (asIs) return url.href;
	return new URL('v1/traces', url.href.endsWith('/') ? url.href : `${url.href}/`).href;
}

/**
 * Exports this process's spans — the agent runs, model calls and tool calls that
 * `n8n-nodes-toolbridge` traces — over OTLP/HTTP (JSON) when an endpoint is set (see
 * {@link traceExportUrl}); otherwise loads nothing and returns undefined. Registers the
 * OpenTelemetry SDK globally (tracer provider, AsyncLocalStorage context, W3C propagation),
 * with `service.name` from `OTEL_SERVICE_NAME` or `toolbridge`, spans batched. An unreachable
 * collector loses spans, never the command.
 *
 * @throws {UsageError} for an endpoint that is not an http(s) URL.
 */
export async function startTraceExport(
	endpoint: string | undefined,
	env: NodeJS.ProcessEnv,
): Promise<TraceExport | undefined> {
	const url = traceExportUrl(endpoint, env);
	if (url === undefined) return undefined;
	const [
		{ NodeTracerProvider, BatchSpanProcessor },
		{ OTLPTraceExporter },
		{ resourceFromAttributes },
	] = await Promise.all([
		import('@opentelemetry/sdk-trace-node'),
		import('@opentelemetry/exporter-trace-otlp-http'),
		import('@opentelemetry/resources'),
	]);
	const provider = new NodeTracerProvider({
		resource: resourceFromAttributes({
			'service.name': env.OTEL_SERVICE_NAME || 'toolbridge',
			'service.version': PACKAGE_VERSION,
		}),
		spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
	});
	provider.register();
	return {
		url,
		shutdown: async () => {
			await provider.forceFlush().catch(() => {});
			await provider.shutdown().catch(() => {});
		},
	};
}
