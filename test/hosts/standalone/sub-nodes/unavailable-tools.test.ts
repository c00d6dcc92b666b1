/**
 * A tool that cannot be served is never listed with an empty schema: without n8n's LangChain
 * package, its nodes are an UnavailableToolsError naming each (node, type, package) and the
 * command that installs the package at n8n-nodes-base's version; `skipUnavailable` serves
 * the rest and lists them.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnavailableToolsError } from '../../../../src/errors/unavailable-tools-error';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const baseDirectory = dirname(require.resolve('n8n-nodes-base/package.json'));
const baseVersion = (
	JSON.parse(readFileSync(`${baseDirectory}/package.json`, 'utf8')) as { version: string }
).version;

const workflow = agentWorkflow(
	'Without the LangChain package',
	[
		langChainNode('Calculator', 'toolCalculator', 1),
		langChainNode('Knowledge base', 'toolVectorStore', 1.1, { description: 'facts' }),
		{
			id: 'hash',
			name: 'Hash text',
			type: 'n8n-nodes-base.cryptoTool',
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				action: 'hash',
				type: 'SHA256',
				value: "={{ $fromAI('text', 'Text to hash', 'string') }}",
				dataPropertyName: 'hash',
			},
		},
	],
	[langChainNode('Store', 'vectorStoreInMemory', 1.3, { mode: 'retrieve' })],
	[{ from: 'Store', to: 'Knowledge base', type: 'ai_vectorStore' }],
);

describe('tools whose package is not installed', () => {
	it('are one error naming every node, type and package, with the install command', async () => {
		// Only n8n-nodes-base: as a new user's install before the add-on.
		const host = await StandaloneHost.create({
			packageDirs: [baseDirectory],
			nodeModulesDirs: [],
			env: {},
		});
		const error = await loadWorkflowTools(workflow, { host }).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(UnavailableToolsError);
		const { tools, installCommand, code, message } = error as UnavailableToolsError;
		expect(code).toBe('TOOLS_UNAVAILABLE');
		expect(
			tools.map(({ nodeName, reason, packageName }) => [nodeName, reason, packageName]),
		).toEqual([
			['Calculator', 'PACKAGE_MISSING', '@n8n/n8n-nodes-langchain'],
			['Knowledge base', 'PACKAGE_MISSING', '@n8n/n8n-nodes-langchain'],
		]);
		expect(message).toContain(
			'"Knowledge base" (@n8n/n8n-nodes-langchain.toolVectorStore): it is of package @n8n/n8n-nodes-langchain, which is not installed; its sub-node "Store" (@n8n/n8n-nodes-langchain.vectorStoreInMemory) is of package @n8n/n8n-nodes-langchain, which is not installed.',
		);
		expect(installCommand).toBe(
			`npm install --prefix ${dirname(dirname(baseDirectory))} --ignore-scripts @n8n/n8n-nodes-langchain@${baseVersion}`,
		);
		expect(message).toContain(`Add the missing packages with: ${installCommand}`);

		const served = await loadWorkflowTools(workflow, { host, skipUnavailable: true });
		expect(served.tools.map((tool) => tool.name)).toEqual(['Hash_text']);
		expect(served.unavailable.map((tool) => tool.nodeName)).toEqual([
			'Calculator',
			'Knowledge base',
		]);
	});

	it('with the package installed, no tool of it has an empty schema', async () => {
		const host = await StandaloneHost.create({ env: {} });
		const loaded = await loadWorkflowTools(workflow, { host, skipUnavailable: true });
		// The Vector Store Tool needs a chat model on its ai_languageModel input: n8n's own node says so.
		expect(loaded.unavailable).toEqual([
			expect.objectContaining({
				nodeName: 'Knowledge base',
				reason: 'SUPPLY_FAILED',
				message: expect.stringContaining("n8n's node could not supply its tool"),
			}),
		]);
		for (const tool of loaded.tools)
			expect(Object.keys(tool.parameters.properties ?? {})).not.toEqual([]);
		await loaded.close();
	});
});
