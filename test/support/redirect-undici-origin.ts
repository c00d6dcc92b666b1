/**
 * Sends the requests n8n's nodes make through undici with their own dispatcher (n8n's
 * `proxyFetch` / `getProxyAgent`: Mistral, Ollama, the OpenAI-compatible nodes) for a fixed
 * public origin (https://api.mistral.ai) to a loopback fake instead — what nock does for
 * `http`/global `fetch`, which such a dispatcher bypasses. Only the origin changes: path,
 * headers and body are the node's own. Nothing leaves the machine.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

interface DispatchOptions {
	origin?: string | URL;
	[key: string]: unknown;
}
type Dispatch = (this: unknown, options: DispatchOptions, handler: unknown) => boolean;

/**
 * Redirects undici requests for `from` (e.g. `https://api.mistral.ai`) to `to` (e.g.
 * `http://127.0.0.1:PORT`) in the undici copy n8n's network package uses; returns the undo.
 */
export function redirectUndiciOrigin(from: string, to: string): () => void {
	const require = createRequire(__filename);
	const network = dirname(require.resolve('@n8n/backend-network/transport'));
	const undici = createRequire(`${network}/`)('undici') as {
		Agent: { prototype: { dispatch: Dispatch } };
	};
	const prototype = undici.Agent.prototype;
	const had = Object.hasOwn(prototype, 'dispatch');
	const original = prototype.dispatch;
	const wanted = new URL(from).origin;
	prototype.dispatch = function (options, handler) {
		const origin =
			options.origin === undefined ? undefined : new URL(String(options.origin)).origin;
		return original.call(this, origin === wanted ? { ...options, origin: to } : options, handler);
	};
	return () => {
		if (had) prototype.dispatch = original;
		else delete (prototype as Partial<typeof prototype>).dispatch;
	};
}
