import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the adapter hands a request to: a web-standard fetch handler (the SDK's `createMcpHandler`). */
export interface FetchHandler {
	fetch(request: Request, options?: { parsedBody?: unknown }): Promise<Response>;
}

/**
 * Serves a Node request with a web-standard fetch handler, the body already read and
 * checked by the caller (`parsedBody`): headers copied, the response's status, headers and
 * body (a JSON answer or an SSE stream) written back. When the client goes away before the
 * answer ends, the request's signal aborts — the SDK then aborts the call's signal, so the
 * tool stops. (What `@modelcontextprotocol/node`'s `toNodeHandler` does, without loading hono.)
 */
export async function serveWithFetchHandler(
	handler: FetchHandler,
	request: IncomingMessage,
	response: ServerResponse,
	parsedBody: unknown,
): Promise<void> {
	const abort = new AbortController();
	response.once('close', () => {
		if (!response.writableFinished) abort.abort();
	});
	const headers = new Headers();
	for (const [name, value] of Object.entries(request.headers)) {
		if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
	}
	const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
	const hasBody = parsedBody !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
	const answer = await handler.fetch(
		new Request(url, {
			method: request.method,
			headers,
			body: hasBody ? JSON.stringify(parsedBody) : undefined,
			signal: abort.signal,
		}),
		hasBody ? { parsedBody } : {},
	);
	response.writeHead(answer.status, Object.fromEntries(answer.headers));
	if (!answer.body) {
		response.end();
		return;
	}
	const reader = answer.body.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done || abort.signal.aborted) break;
			response.write(value);
		}
	} finally {
		if (abort.signal.aborted) void reader.cancel().catch(() => undefined);
		response.end();
	}
}
