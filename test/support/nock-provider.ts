/**
 * A model provider at its fixed public host (api.groq.com, api.mistral.ai …), answered by nock
 * in this process: nothing leaves the machine. Records each request (path, headers, JSON body)
 * and answers what `respond` gives — an SSE stream, NDJSON lines or a JSON body, in the
 * provider's own wire format, which the test writes.
 */
import nock from 'nock';

/** One request the provider received. Header names are lower-case. */
export interface ProviderRequest {
	path: string;
	headers: Record<string, string>;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary request fields
}

/** One answer: the status (default 200), the body as sent, its headers. */
export interface ProviderReply {
	status?: number;
	body: string;
	headers?: Record<string, string>;
}

/** An intercepted provider: its requests so far, and the way to stop intercepting. */
export interface InterceptedProvider {
	requests: ProviderRequest[];
	release(): void;
}

/**
 * Answers every POST to `origin` + `path` with `respond`, and blocks every other connection
 * but loopback while it is on.
 */
export function interceptProvider(
	origin: string,
	path: string | RegExp,
	respond: (request: ProviderRequest) => ProviderReply,
): InterceptedProvider {
	const requests: ProviderRequest[] = [];
	nock.disableNetConnect();
	nock.enableNetConnect(/127\.0\.0\.1|localhost/);
	const scope = nock(origin)
		.persist()
		.post(path)
		.reply(function (uri, body) {
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(this.req.headers))
				headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
			const request: ProviderRequest = {
				path: uri,
				headers,
				body: typeof body === 'string' ? safeJson(body) : body,
			};
			requests.push(request);
			const reply = respond(request);
			return [reply.status ?? 200, reply.body, reply.headers ?? {}];
		});
	return {
		requests,
		release() {
			scope.persist(false);
			nock.cleanAll();
			nock.enableNetConnect();
		},
	};
}

/** Server-sent events: one `data: <json>` per event, then `data: [DONE]` unless `done` is false. */
export function sseBody(events: object[], done = true): ProviderReply {
	const text =
		events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') +
		(done ? 'data: [DONE]\n\n' : '');
	return { body: text, headers: { 'content-type': 'text/event-stream' } };
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
