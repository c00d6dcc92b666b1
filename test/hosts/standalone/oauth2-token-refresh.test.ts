/**
 * An OAuth2 access token n8n-core refreshes during a run is redacted too: n8n's real HTTP
 * Request tool (n8n-nodes-base httpRequestTool v4.2 through n8n-core) with an OAuth2
 * credential (client credentials) whose stored token has expired. The loopback API answers
 * 401 to it; n8n-core fetches a new token from the loopback token endpoint, writes it back
 * through the host's credentials helper and repeats the request; the API echoes the token it
 * received (without `Bearer`, so only the learned secret can catch it). The new token was
 * unknown when the session opened.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import { openWorkflowSession } from '../../../src/hosts/standalone/session/open-workflow-session';
import { StandaloneHost } from '../../../src/hosts/standalone/standalone-host';
import { agentWorkflow } from '../../support/real-tool-nodes';

const EXPIRED = 'expired-token-4d1c9e';
const CLIENT_SECRET = 'client-secret-8b2f61';
let server: Server;
let base: string;
/** The tokens the token endpoint issued, newest last. */
const issued: string[] = [];
const apiCalls: string[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		const json = (status: number, body: unknown) =>
			response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		if (request.url === '/token') {
			request.resume();
			const token = `fresh-${randomBytes(12).toString('hex')}`;
			issued.push(token);
			return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
		}
		const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
		apiCalls.push(token);
		if (!issued.includes(token)) return json(401, { error: 'token expired' });
		return json(200, { youSentToken: token, item: { id: 7, name: 'Lamp' } });
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function oauthToolNode(): INode {
	return {
		id: 'oauth-get',
		name: 'Get item',
		type: 'n8n-nodes-base.httpRequestTool',
		typeVersion: 4.2,
		position: [0, 200],
		parameters: {
			toolDescription: 'GETs an item of the inventory API',
			url: "={{ $fromAI('url', 'The item URL', 'string') }}",
			authentication: 'genericCredentialType',
			genericAuthType: 'oAuth2Api',
			options: {},
		},
		credentials: { oAuth2Api: { id: 'oauth1', name: 'Inventory OAuth2' } },
	};
}

async function hostWithExpiredToken(): Promise<StandaloneHost> {
	return StandaloneHost.create({
		env: {},
		credentials: {
			'Inventory OAuth2': {
				grantType: 'clientCredentials',
				accessTokenUrl: `${base}/token`,
				clientId: 'inventory-client',
				clientSecret: CLIENT_SECRET,
				scope: '',
				authentication: 'header',
				oauthTokenData: { access_token: EXPIRED, token_type: 'Bearer' },
			},
		},
	});
}

const workflow = () => agentWorkflow('Agent', { prompt: '=x', options: {} }, [oauthToolNode()]);

describe('an OAuth2 token refreshed during a run', () => {
	it('is sent on the repeated request and redacted in what the tool hands out', async () => {
		const host = await hostWithExpiredToken();
		const session = await openWorkflowSession(workflow(), { host });
		const before = apiCalls.length;
		const observation = await session.tools[0].invoke(
			{ url: `${base}/items/7` },
			{ toolCallId: 'o1' },
		);
		const fresh = issued.at(-1);
		expect(fresh).toBeDefined();
		// The real refresh path: the expired token was refused, the new one accepted.
		expect(apiCalls.slice(before)).toEqual([EXPIRED, fresh]);
		expect(observation.isError).toBe(false);
		expect(observation.content).toContain('"youSentToken":"[REDACTED]"');
		expect(observation.content).toContain('Lamp');
		expect(observation.content).not.toContain(fresh!);
		expect(JSON.stringify(observation)).not.toContain(fresh!);
		// The host knew the new token only after the run: the redactor learned it.
		expect(session.redactor.secrets).toContain(fresh);
		expect(host.redactor.secrets).toContain(fresh);
		expect(session.redactor.secrets).not.toContain('Bearer');
		await session.close();
	});

	it("reaches the tools of a second session on the same host and the LangChain views; the token's description stays readable", async () => {
		const host = await hostWithExpiredToken();
		const first = await loadWorkflowTools(workflow(), { host });
		await first.tools[0].invoke({ url: `${base}/items/7` }, { toolCallId: 'o2' });
		const fresh = issued.at(-1)!;
		const text = String(await first.langChainTools[0].invoke({ url: `${base}/items/7` }));
		expect(text).toContain('"youSentToken":"[REDACTED]"');
		expect(text).not.toContain(fresh);
		// A session opened after the refresh reads the stored token from the record itself.
		const second = await openWorkflowSession(workflow(), { host });
		expect(second.redactor.secrets).toContain(fresh);
		expect(second.redactor.text(`token_type Bearer, scope none, token ${fresh}`)).toBe(
			'token_type Bearer, scope none, token [REDACTED]',
		);
		await first.close();
		await second.close();
	});
});
