/**
 * A loopback OTLP/HTTP trace collector (JSON, what exporter-trace-otlp-http sends): keeps every
 * export request and flattens its spans, with attributes as plain values.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received span. `kind`: 1 INTERNAL, 3 CLIENT. */
export interface CollectedSpan {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	kind: number;
	status: { code?: number };
	attributes: Record<string, unknown>;
	scope: string;
	resource: Record<string, unknown>;
}

export interface OtlpCollector {
	/** `http://127.0.0.1:<port>` (the exporter's base URL). */
	url: string;
	/** Each export request: its path, content type and raw body. */
	requests: Array<{ path: string; contentType: string; body: string }>;
	spans(): CollectedSpan[];
	close(): Promise<void>;
}

type OtlpValue = Record<string, unknown>;

/** An OTLP AnyValue as a plain value (arrays kept, ints as numbers). */
function plain(value: OtlpValue): unknown {
	if ('arrayValue' in value)
		return ((value.arrayValue as { values?: OtlpValue[] }).values ?? []).map(plain);
	if ('intValue' in value) return Number(value.intValue);
	return Object.values(value)[0];
}

const attributesOf = (list: Array<{ key: string; value: OtlpValue }> = []) =>
	Object.fromEntries(list.map((attribute) => [attribute.key, plain(attribute.value)]));

export async function startOtlpCollector(): Promise<OtlpCollector> {
	const requests: OtlpCollector['requests'] = [];
	const server = createServer((request, response) => {
		let body = '';
		request.on('data', (piece) => (body += piece));
		request.on('end', () => {
			requests.push({
				path: request.url ?? '',
				contentType: String(request.headers['content-type']),
				body,
			});
			response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		spans: () =>
			requests.flatMap((request) =>
				(JSON.parse(request.body).resourceSpans ?? []).flatMap(
					(resourceSpans: {
						resource: { attributes: Array<{ key: string; value: OtlpValue }> };
						scopeSpans: Array<{ scope: { name: string }; spans: Array<Record<string, never>> }>;
					}) =>
						resourceSpans.scopeSpans.flatMap((scopeSpans) =>
							scopeSpans.spans.map((span): CollectedSpan => ({
								traceId: span.traceId,
								spanId: span.spanId,
								parentSpanId: span.parentSpanId || undefined,
								name: span.name,
								kind: span.kind,
								status: span.status ?? {},
								attributes: attributesOf(span.attributes),
								scope: scopeSpans.scope.name,
								resource: attributesOf(resourceSpans.resource.attributes),
							})),
						),
				),
			),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
