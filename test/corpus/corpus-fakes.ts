/**
 * Everything the corpus run talks to instead of the internet: a loopback server standing in for
 * every service a credential points at (OpenAI-compatible embeddings and chat, and `{}` for
 * anything else), nock for the fixed public hosts templates' tools call (Wikipedia, SerpApi,
 * and the hosts of HTTP Request Tools that need no credential), dummy credential records for
 * every credential a template names, and no other network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import type { CredentialRecords, StandaloneHost, WorkflowExport } from '../../src/index';
import type { CorpusModel } from './corpus-model';

/** The loopback stand-in for every credential's service. */
export interface LoopbackService {
	url: string;
	/** Paths it answered, in order. */
	received: string[];
	close(): Promise<void>;
}

/**
 * Starts the loopback service: OpenAI-compatible `/embeddings`, the scripted model on every path
 * a model answers on (Chat Completions, Messages, generateContent, Ollama's chat), `{}` elsewhere.
 */
export async function startLoopbackService(model: CorpusModel): Promise<LoopbackService> {
	const received: string[] = [];
	const server: Server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk) => (body += chunk));
		request.on('end', () => {
			received.push(`${request.method} ${request.url}`);
			response.setHeader('content-type', 'application/json');
			if (request.url?.endsWith('/embeddings')) {
				const input = (JSON.parse(body || '{}') as { input?: unknown }).input;
				const texts = Array.isArray(input) ? input : [input];
				response.end(
					JSON.stringify({
						object: 'list',
						data: texts.map((_, index) => ({
							object: 'embedding',
							index,
							embedding: [1, 0, 0, 0, 0, 0, 0, index / 10],
						})),
						model: 'fake',
						usage: { prompt_tokens: 1, total_tokens: 1 },
					}),
				);
				return;
			}
			const reply = model.answer(request.url ?? '/', body);
			if (reply) {
				response.writeHead(reply.status, reply.headers);
				response.end(reply.body);
				return;
			}
			response.end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** What Wikipedia's stand-in answers: the call's observation must carry it. */
export const WIKIPEDIA_EXTRACT = 'Ada Lovelace was an English mathematician.';

/** Blocks every connection but loopback; Wikipedia and SerpApi answer through nock. */
export function interceptPublicHosts(): void {
	nock.disableNetConnect();
	nock.enableNetConnect('127.0.0.1');
	nock('https://en.wikipedia.org')
		.persist()
		.get('/w/api.php')
		.query((query) => query.list === 'search')
		.reply(200, { query: { search: [{ title: 'Ada Lovelace' }] } });
	nock('https://en.wikipedia.org')
		.persist()
		.get('/w/api.php')
		.query((query) => query.prop === 'extracts')
		.reply(200, { query: { pages: { 1: { extract: WIKIPEDIA_EXTRACT } } } });
	nock('https://serpapi.com')
		.persist()
		.get('/search')
		.query(true)
		.reply(200, { answer_box: { answer: 'a fake search answer' } });
}

/** A fixed public host an HTTP Request Tool calls: any GET or POST answers `{ "fake": true }`. */
export function interceptHost(origin: string): void {
	nock(origin).persist().get(/.*/).reply(200, { fake: true });
	nock(origin).persist().post(/.*/).reply(200, { fake: true });
}

/** Undoes {@link interceptPublicHosts} and every interception. */
export function releaseNetwork(): void {
	nock.cleanAll();
	nock.enableNetConnect();
}

/**
 * A dummy record for every credential the template's nodes name, filled from the credential
 * type's own properties: URL-like fields point at the loopback service, other strings are
 * placeholders, numbers, booleans and options take a plain value. A user brings real ones.
 */
export function dummyCredentials(
	workflow: WorkflowExport,
	host: StandaloneHost,
	serviceUrl: string,
): CredentialRecords {
	const records: CredentialRecords = {};
	for (const node of workflow.nodes) {
		for (const [type, details] of Object.entries(node.credentials ?? {})) {
			const key = details.name || type;
			if (records[key]) continue;
			let properties: ReturnType<StandaloneHost['credentialsHelper']['getCredentialsProperties']>;
			try {
				properties = host.credentialsHelper.getCredentialsProperties(type);
			} catch {
				properties = [];
			}
			const record: Record<string, unknown> = {};
			for (const property of properties) {
				if (/url|host|endpoint|domain|server/i.test(property.name))
					record[property.name] = serviceUrl;
				else if (property.type === 'number') record[property.name] = property.default || 1;
				else if (property.type === 'boolean') record[property.name] = property.default ?? false;
				else if (property.type === 'options')
					record[property.name] =
						property.default || (property.options?.[0] as { value?: unknown })?.value;
				else if (property.type === 'string' || property.type === 'hidden')
					record[property.name] = property.default || 'corpus-dummy';
			}
			records[key] = record as CredentialRecords[string];
		}
	}
	return records;
}
