/**
 * Names from a workflow or a credentials file that are also Object.prototype members
 * (`toString`, `constructor` …) are looked up as own keys by the standalone host: unknown
 * stays unknown (with the usual clear error), and `__proto__` pollutes nothing.
 */
import type { INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { AgentConfigurationError } from '../../../src/errors/agent-configuration-error';
import { NodeTypeNotFoundError } from '../../../src/errors/node-type-not-found-error';
import { loadCredentialRecords } from '../../../src/hosts/standalone/credential-store';
import { readN8nAgentSettings } from '../../../src/hosts/standalone/workflow/read-n8n-agent-settings';
import { credentialRecordOf } from '../../../src/hosts/standalone/workflow/workflow-agent-settings';
import type { WorkflowExport } from '../../../src/hosts/standalone/workflow-file';
import { sharedHost } from '../../tools/helpers';

const memberNames = ['toString', 'constructor', 'hasOwnProperty', 'valueOf'];

describe('the standalone host looks names up as own keys', () => {
	it.each(memberNames)(
		'node type n8n-nodes-base.%s is not in the package (and not its …Tool variant)',
		async (name) => {
			const host = await sharedHost();
			expect(() => host.nodeTypes.getByNameAndVersion(`n8n-nodes-base.${name}`, 1)).toThrow(
				NodeTypeNotFoundError,
			);
			expect(() => host.nodeTypes.getByNameAndVersion(`n8n-nodes-base.${name}`, 1)).toThrow(
				`Node type "n8n-nodes-base.${name}" is not in package "n8n-nodes-base".`,
			);
			expect(() => host.nodeTypes.getByNameAndVersion(`n8n-nodes-base.${name}Tool`, 1)).toThrow(
				NodeTypeNotFoundError,
			);
		},
	);

	it.each(memberNames)('credential type %s is not defined by any package', async (name) => {
		const host = await sharedHost();
		expect(() => host.nodeTypes.getCredentialType(name)).toThrow(
			`Credential type "${name}" is not defined by any installed node package.`,
		);
	});

	it.each(memberNames)('a node without a %s credential references none', (name) => {
		const seen: unknown[] = [];
		const node: INode = {
			id: 'n',
			name: 'Model',
			type: 'x.y',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: {},
		};
		expect(
			credentialRecordOf(node, name, (details) => (seen.push(details), undefined)),
		).toBeUndefined();
		expect(seen).toEqual([{ id: null, name: '' }]);
	});

	it.each(memberNames)(
		'a chat model node of type %s is one toolbridge cannot read',
		async (name) => {
			const workflow: WorkflowExport = {
				nodes: [
					{
						id: 'a',
						name: 'AI Agent',
						type: '@n8n/n8n-nodes-langchain.agent',
						typeVersion: 1.7,
						position: [0, 0],
						parameters: { promptType: 'define', text: 'hi' },
					},
					{ id: 'm', name: 'Model', type: name, typeVersion: 1, position: [0, 0], parameters: {} },
				],
				connections: {
					Model: { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
				},
			};
			const read = readN8nAgentSettings(workflow.nodes[0], workflow, {
				chatInput: 'hi',
				credentials: () => undefined,
				apiKey: 'k',
			});
			await expect(read).rejects.toThrow(AgentConfigurationError);
			await expect(read).rejects.toThrow(
				`its chat model "Model" is a ${name}, which toolbridge cannot read`,
			);
		},
	);

	it('a credentials file with a "__proto__" record keeps it as an ordinary record and pollutes nothing', () => {
		const records = loadCredentialRecords({
			env: {
				TOOLBRIDGE_CREDENTIALS:
					'{"__proto__": {"apiKey": "sk-proto"}, "openRouterApi": {"apiKey": "sk-real"}}',
			},
		});
		expect(Object.keys(records)).toEqual(['__proto__', 'openRouterApi']);
		expect(Object.hasOwn(records, '__proto__')).toBe(true);
		expect((records as Record<string, unknown>).apiKey).toBeUndefined();
		expect(({} as Record<string, unknown>).apiKey).toBeUndefined();
	});
});
