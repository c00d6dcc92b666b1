import type { ServerResponse } from 'node:http';

/** An open `text/event-stream` answer. */
export interface SseStream {
	/** Sends one event: `data: <json or text>`, after `event: <name>` when given. Nothing once ended. */
	send(data: object | string, event?: string): void;
	/** Ends the answer. */
	end(): void;
}

/** Starts a 200 `text/event-stream` answer (no caching, no proxy buffering). */
export function openSseStream(response: ServerResponse): SseStream {
	response.writeHead(200, {
		'Content-Type': 'text/event-stream',
		'Cache-Control': 'no-cache',
		Connection: 'keep-alive',
		'X-Accel-Buffering': 'no',
	});
	return {
		send(data, event) {
			if (response.writableEnded) return;
			const text = typeof data === 'string' ? data : JSON.stringify(data);
			response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${text}\n\n`);
		},
		end() {
			if (!response.writableEnded) response.end();
		},
	};
}
