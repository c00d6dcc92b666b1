/**
 * A nock fake of Google Vertex AI as a service account reaches it (neither google-auth-library
 * nor the Vertex endpoint takes a base URL from n8n's credential, so the real hosts are
 * intercepted; nothing leaves the process):
 *
 * 1. the OAuth token exchange: `POST https://oauth2.googleapis.com/token`, form-encoded
 *    `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>` — the JWT is
 *    RS256-signed with the service account's private key, `iss` its email, `aud` the token URL,
 *    `scope` the scopes; answered `{ access_token, expires_in, token_type: 'Bearer' }`;
 * 2. the model: `POST https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:streamGenerateContent`
 *    (`:generateContent` unstreamed) with `Authorization: Bearer <access_token>`; the stream is
 *    Vertex's JSON array of `GenerateContentResponse`s (`fake-gemini.ts` builds them).
 *
 * ```ts
 * const vertex = nockVertexAi({ projectId: 'p', location: 'us-central1', respond: (body) => […] });
 * // … run …
 * vertex.requests, vertex.tokenRequests
 * ```
 */
import { createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import nock from 'nock';
import { geminiResponse, geminiResponses, type GeminiPart } from './fake-gemini';

/** The access token the fake's token endpoint hands out. */
export const vertexAccessToken = 'ya29.fake-vertex-access-token';

/** A throwaway service account: an RSA key made for this run. */
export function throwawayServiceAccount(): { email: string; privateKey: string } {
	const { privateKey } = generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	});
	return { email: 'toolbridge-test@fake-project.iam.gserviceaccount.com', privateKey };
}

/** A token request as received: its form fields and the decoded, signature-checked JWT. */
export interface VertexTokenRequest {
	grantType: string;
	/** The JWT's claims (`iss`, `aud`, `scope`, `iat`, `exp`). */
	claims: Record<string, unknown>;
	/** The JWT's header (`alg`, `typ`). */
	header: Record<string, unknown>;
	/** Whether the JWT's RS256 signature verifies with the service account's public key. */
	signatureValid: boolean;
}

/** A model request as received. */
export interface VertexModelRequest {
	path: string;
	model: string;
	method: string;
	authorization: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON
	body: any;
}

export interface VertexAiFakeOptions {
	projectId: string;
	location: string;
	/** The service account's private key (PEM), to verify the JWT's signature with. */
	privateKey: string;
	/**
	 * The parts of the answer to one model request, or an error (`{ status, error }`, the
	 * Google error body's `error` object).
	 */
	respond: (
		request: VertexModelRequest,
	) =>
		| { parts: GeminiPart[]; usage?: { promptTokenCount: number; candidatesTokenCount: number } }
		| { status: number; error: { code: number; message: string; status: string } };
}

/** Vertex's streamed body: one JSON array of responses, elements separated by `,\r\n`. */
export function vertexStreamBody(responses: object[]): string {
	return `[${responses.map((response) => JSON.stringify(response, null, 2)).join(',\r\n')}]`;
}

function decodeSegment(segment: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * Intercepts the token endpoint and the regional Vertex AI host (any number of requests) until
 * `nock.cleanAll()`. Requests are recorded in order.
 */
export function nockVertexAi(options: VertexAiFakeOptions): {
	tokenRequests: VertexTokenRequest[];
	requests: VertexModelRequest[];
} {
	const tokenRequests: VertexTokenRequest[] = [];
	const requests: VertexModelRequest[] = [];
	const publicKey = createPublicKey(options.privateKey);
	nock('https://oauth2.googleapis.com')
		.persist()
		.post('/token')
		.reply((_path, body) => {
			const form = new URLSearchParams(typeof body === 'string' ? body : '');
			const [header = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
			const verifier = createVerify('RSA-SHA256');
			verifier.update(`${header}.${claims}`);
			tokenRequests.push({
				grantType: form.get('grant_type') ?? '',
				header: header ? decodeSegment(header) : {},
				claims: claims ? decodeSegment(claims) : {},
				signatureValid: signature !== '' && verifier.verify(publicKey, signature, 'base64url'),
			});
			return [
				200,
				{ access_token: vertexAccessToken, expires_in: 3599, token_type: 'Bearer' },
				{ 'Content-Type': 'application/json; charset=utf-8' },
			];
		});
	const prefix = `/v1/projects/${options.projectId}/locations/${options.location}/publishers/google/models/`;
	nock(`https://${options.location}-aiplatform.googleapis.com`)
		.persist()
		.post((path) => path.startsWith(prefix))
		.reply(function (path, body) {
			const model = /\/models\/([^/:]+):/.exec(path)?.[1] ?? '';
			const request: VertexModelRequest = {
				path,
				model,
				method: 'POST',
				authorization: String(this.req.headers.authorization ?? ''),
				body: typeof body === 'string' ? JSON.parse(body) : body,
			};
			requests.push(request);
			const answer = options.respond(request);
			if ('error' in answer)
				return [answer.status, { error: answer.error }, { 'Content-Type': 'application/json' }];
			const replyOptions = { modelVersion: model, usage: answer.usage };
			if (path.includes(':streamGenerateContent'))
				return [
					200,
					vertexStreamBody(geminiResponses(answer.parts, replyOptions)),
					{ 'Content-Type': 'application/json; charset=UTF-8' },
				];
			return [
				200,
				geminiResponse(answer.parts, replyOptions),
				{ 'Content-Type': 'application/json; charset=UTF-8' },
			];
		});
	return { tokenRequests, requests };
}
