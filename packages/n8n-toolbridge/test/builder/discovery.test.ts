/**
 * search_nodes and get_nodes on the real descriptions: n8n-nodes-base, n8n's LangChain nodes
 * (installed or described from the cache) and a community package given with --package.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { NodeCatalog } from '../../src/builder/catalog/node-catalog';
import { discoveryTools } from '../../src/builder/discovery/discovery-tools';
import { getNodes, GET_NODES_MAX_CHARS, nodeTypeText } from '../../src/builder/discovery/get-nodes';
import { searchNodes } from '../../src/builder/discovery/search-nodes';
import { builderContext } from '../support/builder-context';

let catalog: NodeCatalog;

beforeAll(async () => {
	({ catalog } = await builderContext());
}, 120_000);

/** The node ids listed in one query's section of a search answer. */
function idsFor(text: string, query: string): string[] {
	const section = text.split('\n\n').find((part) => part.startsWith(`## "${query}"`)) ?? '';
	return section
		.split('\n')
		.filter((line) => line.startsWith('- '))
		.map((line) => line.slice(2).split(' ')[0]);
}

describe('the node catalog', () => {
	it('reads n8n-nodes-base, LangChain and the --package community package, one entry per type', () => {
		const names = catalog.packages.map((found) => found.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'n8n-nodes-base',
				'@n8n/n8n-nodes-langchain',
				'n8n-nodes-toolbridge-fixture',
			]),
		);
		expect(
			catalog.packages.find((found) => found.name === 'n8n-nodes-base')?.nodeTypes,
		).toBeGreaterThan(400);
		expect(catalog.find('n8n-nodes-base.httpRequest')?.versions).toEqual(
			expect.arrayContaining([1, 2, 3, 4, 4.1, 4.2]),
		);
		expect(catalog.find('n8n-nodes-toolbridge-fixture.textStats')?.loadable).toBe(true);
	});

	it('derives …Tool variants of usableAsTool nodes as n8n does, and only of those', () => {
		const tool = catalog.describe('n8n-nodes-base.cryptoTool', 2);
		expect(tool?.outputs).toEqual(['ai_tool']);
		expect(tool?.inputs).toEqual([]);
		expect(tool?.properties.some((property) => property.name === 'toolDescription')).toBe(true);
		expect(catalog.find('n8n-nodes-base.manualTriggerTool')).toBeUndefined();
		expect(catalog.find('n8n-nodes-base.doesNotExistTool')).toBeUndefined();
	});

	it("knows versions: an unknown version throws n8n-workflow's NodeVersionNotFoundError with the versions", () => {
		expect(() => catalog.describe('n8n-nodes-base.httpRequest', 9)).toThrow(/9/);
		expect(catalog.describe('n8n-nodes-base.nope')).toBeUndefined();
	});
});

describe('search_nodes', () => {
	it('answers several queries at once with ids, versions, kinds and discriminators', () => {
		const text = searchNodes(catalog, [
			'slack',
			'ai agent',
			'openrouter chat model',
			'text stats',
			'schedule',
		]);
		expect(idsFor(text, 'slack')[0]).toBe('n8n-nodes-base.slack');
		expect(text).toMatch(
			/- n8n-nodes-base\.slack v[\d.]+ "Slack" \[tool variant: n8n-nodes-base\.slackTool\]/,
		);
		expect(text).toMatch(/resource\/operation: .*message \([^)]*post/);
		expect(idsFor(text, 'ai agent')[0]).toBe('@n8n/n8n-nodes-langchain.agent');
		expect(idsFor(text, 'openrouter chat model')[0]).toBe(
			'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
		);
		expect(text).toMatch(/lmChatOpenRouter v1 "OpenRouter Chat Model" \[sub-node ai_languageModel/);
		expect(idsFor(text, 'text stats')[0]).toBe('n8n-nodes-toolbridge-fixture.textStats');
		expect(idsFor(text, 'schedule')).toContain('n8n-nodes-base.scheduleTrigger');
		expect(text).toMatch(/Next: call get_nodes/);
	});

	it('leaves hidden (retired) node types out and says when nothing matched', () => {
		const hidden = catalog.nodeTypes.find((entry) => catalog.describe(entry.type)?.hidden);
		expect(hidden).toBeDefined();
		const text = searchNodes(catalog, [hidden!.type, 'zzzqqq']);
		expect(idsFor(text, hidden!.type)).not.toContain(hidden!.type);
		expect(text).toMatch(/## "zzzqqq"\nNo nodes found/);
	});

	it("marks LangChain's nodes as described only when the package is not installed", () => {
		const text = searchNodes(catalog, ['calculator']);
		const installed = catalog.langChain.source === 'installed';
		expect(text.includes('described only')).toBe(!installed);
	});
});

describe('get_nodes', () => {
	it('gives the generated types of exactly the parameters that apply, with how to write the node', () => {
		const answer = nodeTypeText(catalog, {
			nodeId: 'n8n-nodes-base.slack',
			resource: 'message',
			operation: 'post',
		});
		expect('text' in answer).toBe(true);
		const text = (answer as { text: string }).text;
		expect(text).toMatch(/^## n8n-nodes-base\.slack v[\d.]+ — "Slack"/);
		expect(text).toMatch(/Write it as node\(\{ type: 'n8n-nodes-base\.slack'/);
		expect(text).toMatch(/Credentials .*slackApi/);
		expect(text).toContain('```typescript');
		expect(text).toMatch(/resource: 'message'/);
		expect(text).toMatch(/operation: 'post'/);
		expect(text).toMatch(/channelId/);
		// Parameters of other operations are not shown.
		expect(text).not.toMatch(/messageId/);
	});

	it('a …Tool variant: written with tool(), with fromAi and a toolDescription', () => {
		const text = (
			nodeTypeText(catalog, { nodeId: 'n8n-nodes-base.cryptoTool' }) as { text: string }
		).text;
		expect(text).toMatch(/Write it as tool\(\{ type: 'n8n-nodes-base\.cryptoTool', version: 2/);
		expect(text).toMatch(/Tool variant of n8n-nodes-base\.crypto: .*fromAi/);
		expect(text).toMatch(/type\?: 'MD5' \| 'SHA1' \| 'SHA256'/);
		expect(text).toMatch(/toolDescription/);
	});

	it('LangChain sub-nodes say which subnodes slot they go in', () => {
		const text = (
			nodeTypeText(catalog, { nodeId: '@n8n/n8n-nodes-langchain.lmChatOpenRouter' }) as {
				text: string;
			}
		).text;
		expect(text).toMatch(/Write it as languageModel\(.*subnodes \(ai_languageModel\)/);
		expect(text).toMatch(/openRouterApi/);
	});

	it('asks for discriminators, with the choices, when they are missing or wrong', () => {
		const missing = nodeTypeText(catalog, { nodeId: 'n8n-nodes-base.code' });
		expect(missing).toEqual({
			error: expect.stringMatching(
				/needs its discriminators.*mode: runOnceForAllItems, runOnceForEachItem.*mode: "runOnceForAllItems"/,
			),
		});
		const wrong = nodeTypeText(catalog, {
			nodeId: 'n8n-nodes-base.slack',
			resource: 'message',
			operation: 'fly',
		});
		expect(wrong).toEqual({ error: expect.stringMatching(/operation "fly" is not one of them/) });
	});

	it('unknown ids and versions are errors that say what exists', () => {
		expect(nodeTypeText(catalog, { nodeId: 'n8n-nodes-base.slak' })).toEqual({
			error: expect.stringMatching(
				/Unknown node id "n8n-nodes-base\.slak"\. Did you mean n8n-nodes-base\.slack/,
			),
		});
		expect(nodeTypeText(catalog, { nodeId: 'n8n-nodes-base.httpRequest', version: 9 })).toEqual({
			error: expect.stringMatching(/has no version 9; versions: 1, 2, 3, 4, 4\.1/),
		});
	});

	it('several at once, errors listed after the definitions, the answer bounded', () => {
		const text = getNodes(catalog, [
			{ nodeId: 'n8n-nodes-base.set', mode: 'manual' },
			{ nodeId: 'n8n-nodes-base.nope' },
			{ nodeId: 'n8n-nodes-base.httpRequest' },
			{ nodeId: 'n8n-nodes-base.httpRequestTool' },
			{ nodeId: '@n8n/n8n-nodes-langchain.agent' },
			{ nodeId: 'n8n-nodes-base.code', mode: 'runOnceForAllItems' },
		]);
		expect(text.indexOf('## n8n-nodes-base.set')).toBeLessThan(text.indexOf('# Errors'));
		expect(text).toMatch(/# Errors\n- Unknown node id "n8n-nodes-base\.nope"/);
		expect(text.length).toBeLessThan(GET_NODES_MAX_CHARS + 2_000);
		expect(text).toMatch(
			/Not shown \(the answer would be too long\): .*Ask for them in another get_nodes call/,
		);
	});

	it('as agent tools: bad arguments answer with an error the model can correct', async () => {
		const [search, lookup] = discoveryTools(catalog);
		const searched: string[][] = [];
		const [withListener] = discoveryTools(catalog, {
			onSearch: (queries) => searched.push(queries),
		});
		expect(await search.invoke({ queries: 'slack' }, { toolCallId: '1' })).toMatchObject({
			isError: false,
		});
		expect(await search.invoke({ queries: [] }, { toolCallId: '2' })).toMatchObject({
			isError: true,
			content: expect.stringMatching(/"queries" must be a non-empty array/),
		});
		expect(await lookup.invoke({ nodeIds: [{ id: 'x' }] }, { toolCallId: '3' })).toMatchObject({
			isError: true,
			content: expect.stringMatching(
				/nodeIds\[0\] must be a node id string or an object with "nodeId"/,
			),
		});
		await withListener.invoke({ queries: ['gmail', 'hash'] }, { toolCallId: '4' });
		expect(searched).toEqual([['gmail', 'hash']]);
	});
});
