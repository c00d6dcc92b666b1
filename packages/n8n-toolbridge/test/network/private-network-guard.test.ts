/**
 * The guard on real HTTP Request tools (n8n-nodes-base httpRequestTool through n8n-core):
 * refusals before and after DNS resolution and on redirects, the refusal the model reads,
 * and what stays allowed. Host names resolve through a stub; the only server is loopback.
 */
import {
	loadWorkflowTools,
	openWorkflowSession,
	readWorkflowInput,
	StandaloneHost,
	type AgentTool,
} from 'n8n-nodes-toolbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUrlParameterPath, nodesWithModelChosenUrls } from '../../src/network/model-chosen-urls';
import type { NetworkGuardOptions } from '../../src/network/network-guard';
import { privateNetworkGuard } from '../../src/network/private-network-guard';
import { startLoopbackApi, type LoopbackApi } from '../support/loopback-api';
import { repoRoot } from '../support/toolbridge-process';

const credentials = { 'Inventory API key': { name: 'X-Api-Key', value: 'k' } };
const stubDns: Record<string, string> = {
	'inventory.test': '127.0.0.1',
	'internal.test': '10.0.0.5',
};
const lookup: NetworkGuardOptions['lookup'] = async (hostname) => {
	const address = stubDns[hostname];
	if (!address)
		throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
	return [{ address, family: 4 }];
};
let api: LoopbackApi;

beforeAll(async () => {
	api = await startLoopbackApi();
});
afterAll(() => api.close());

async function guardedTools(
	options: NetworkGuardOptions,
	workflow: string | object = `${repoRoot}/fixtures/workflows/http-tools.json`,
): Promise<Record<string, AgentTool>> {
	const { tools } = await openWorkflowSession(workflow, {
		credentials,
		env: {},
		guard: privateNetworkGuard({ lookup, ...options }),
	});
	return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
}

describe('privateNetworkGuard on HTTP Request tools', () => {
	it.each([
		['a loopback address', () => `http://${api.host}/items/7`, '127.0.0.1'],
		[
			'a name that resolves to loopback',
			() => `http://inventory.test:${api.host.split(':')[1]}/items/7`,
			'inventory.test (127.0.0.1)',
		],
		[
			'the cloud metadata address',
			() => 'http://169.254.169.254/latest/meta-data/',
			'169.254.169.254',
		],
	])('%s is refused before any request; the model reads why', async (_case, url, target) => {
		const tools = await guardedTools({});
		const before = api.received.length;
		const observation = await tools.Fetch_item.invoke({ url: url() }, { toolCallId: 'ssrf' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toBe(
			`Error: node "Fetch item" failed: Refused to connect to ${target}: a loopback, private, link-local or cloud-metadata address. Tools may not reach internal networks with URLs the model chooses.\n` +
				'Details: Use a public URL. (Whoever runs this server can allow internal addresses with --allow-private-network.)',
		);
		expect(api.received.length).toBe(before);
	});

	it.each([
		['an address', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
		[
			'a name resolving to a private address',
			'http://internal.test/admin',
			'internal.test (10.0.0.5)',
		],
	])(
		'a redirect to %s is refused (the first hop is allowed on purpose)',
		async (_case, target, refused) => {
			const tools = await guardedTools({ allow: ['127.0.0.1'] });
			const before = api.received.length;
			const observation = await tools.Fetch_item.invoke(
				{ url: `http://${api.host}/redirect?to=${encodeURIComponent(target)}` },
				{ toolCallId: 'redirect' },
			);
			expect(observation.isError).toBe(true);
			expect(observation.content).toContain(`Refused to connect to ${refused}`);
			expect(api.received.slice(before).map((request) => request.path)).toEqual([
				`/redirect?to=${encodeURIComponent(target)}`,
			]);
		},
	);

	it('the guard belongs to its session: the same host without it is not guarded', async () => {
		const host = await StandaloneHost.create({ credentials, env: {} });
		const guarded = await openWorkflowSession(`${repoRoot}/fixtures/workflows/http-tools.json`, {
			host,
			guard: privateNetworkGuard({ lookup }),
		});
		const refused = await guarded.tools[0].invoke(
			{ url: `http://${api.host}/items/7` },
			{ toolCallId: 'guarded' },
		);
		expect(refused.content).toContain('Refused to connect to 127.0.0.1');
		expect(Object.hasOwn(host, 'runNode')).toBe(false);
		const { tools } = await loadWorkflowTools(`${repoRoot}/fixtures/workflows/http-tools.json`, {
			host,
		});
		const observation = await tools[0].invoke(
			{ url: `http://${api.host}/items/7` },
			{ toolCallId: 'unguarded' },
		);
		expect(observation.isError).toBe(false);
	});

	it('with allowPrivateNetwork there is no guard and the same call goes through', async () => {
		expect(privateNetworkGuard({ allowPrivateNetwork: true })).toBeUndefined();
		const tools = await guardedTools({ allowPrivateNetwork: true });
		const observation = await tools.Fetch_item.invoke(
			{ url: `http://${api.host}/items/7` },
			{ toolCallId: 'allowed' },
		);
		expect(observation).toMatchObject({ isError: false, data: [{ id: 7, name: 'Lamp' }] });
	});

	it("a URL the workflow fixes is not the model's: it stays reachable (only its query comes from $fromAI)", async () => {
		const workflow = readWorkflowInput(`${repoRoot}/fixtures/workflows/http-tools.json`);
		const search = workflow.nodes.find((node) => node.name === 'Search items')!;
		search.parameters.url = `http://${api.host}/items/3`;
		expect([...nodesWithModelChosenUrls(workflow)]).toEqual(['Fetch item']);
		const tools = await guardedTools({}, workflow);
		const observation = await tools.Search_items.invoke({ query: 'lamp' }, { toolCallId: 'fixed' });
		expect(observation).toMatchObject({ isError: false, data: [{ id: 3, name: 'Lamp' }] });
	});
});

describe('isUrlParameterPath', () => {
	it.each<[Array<string | number>, boolean]>([
		[['url'], true],
		[['baseUrl'], true],
		[['options', 'webhookURL'], true],
		[['endpoint'], true],
		[['connection', 'host'], true],
		[['queryParameters', 'parameters', 0, 'value'], false],
		[['text'], false],
		[['options', 'fields', 2, 'value'], false],
	])('%j → %s', (segments, expected) => {
		expect(isUrlParameterPath(segments)).toBe(expected);
	});
});
