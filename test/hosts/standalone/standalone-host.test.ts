import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { InstanceSettings } from 'n8n-core';
import { createRequire } from 'node:module';
import { AgentNotFoundError } from '../../../src/errors/agent-not-found-error';
import { NodeTypeNotFoundError } from '../../../src/errors/node-type-not-found-error';
import { UnsupportedNodeError } from '../../../src/errors/unsupported-node-error';
import { loadCredentialRecords } from '../../../src/hosts/standalone/credential-store';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import { readWorkflowFile, selectAgent } from '../../../src/hosts/standalone/workflow-file';
import { sharedHost, workflowFixture } from '../../tools/helpers';

const digest = (algorithm: string, text: string) =>
	createHash(algorithm).update(text).digest('hex');

describe('node types', () => {
	it('derives …Tool variants the way the n8n CLI does', async () => {
		const host = await sharedHost();
		const plain = host.nodeTypes.getByNameAndVersion('n8n-nodes-base.crypto', 2);
		const tool = host.nodeTypes.getByNameAndVersion('n8n-nodes-base.cryptoTool', 2);
		expect(tool.description.name).toBe('cryptoTool');
		expect(tool.description.outputs).toEqual(['ai_tool']);
		expect(tool.description.inputs).toEqual([]);
		expect(tool.description.properties.map((property) => property.name)).toContain(
			'toolDescription',
		);
		expect(plain.description.properties.map((property) => property.name)).not.toContain(
			'toolDescription',
		);
		expect(tool.execute).toBe(plain.execute);
		// Date & Time has an operation: the descriptionType switch comes first.
		const dateTool = host.nodeTypes.getByNameAndVersion('n8n-nodes-base.dateTimeTool', 2);
		const names = dateTool.description.properties.map((property) => property.name);
		expect(names.indexOf('descriptionType')).toBe(names.indexOf('toolDescription') - 1);
		// The fixture package (plain JS, loaded eagerly by n8n-core's PackageDirectoryLoader).
		expect(
			host.nodeTypes.getByNameAndVersion('n8n-nodes-toolbridge-fixture.textStatsTool', 1)
				.description.displayName,
		).toBe('Text Stats Tool');
	});

	it('refuses …Tool of a node that is not usableAsTool, and unknown packages', async () => {
		const host = await sharedHost();
		expect(() => host.nodeTypes.getByNameAndVersion('n8n-nodes-base.setTool', 3.4)).toThrow(
			/not usable as a tool/,
		);
		expect(() => host.nodeTypes.getByNameAndVersion('n8n-nodes-nope.thing', 1)).toThrow(
			NodeTypeNotFoundError,
		);
		expect(() => host.nodeTypes.getByNameAndVersion('n8n-nodes-nope.thing', 1)).toThrow(
			/package "n8n-nodes-nope" is not installed/,
		);
	});

	it('keeps InstanceSettings in memory: nothing under ~/.n8n', async () => {
		const host = await sharedHost();
		// n8n-core's engine, and the settings with it, load when the first node runs.
		const node = {
			id: 'h',
			name: 'Hash',
			type: 'n8n-nodes-base.crypto',
			typeVersion: 2,
			position: [0, 0] as [number, number],
			parameters: { type: 'SHA256', value: 'x', dataPropertyName: 'hash' },
		};
		expect(
			(await host.runNode({ nodes: [node], connections: {} }, node, {})).error,
		).toBeUndefined();
		const requireFromCore = createRequire(require.resolve('n8n-core'));
		const { Container } = requireFromCore('@n8n/di') as {
			Container: { get<T>(token: unknown): T };
		};
		const settings = Container.get<InstanceSettings>(InstanceSettings);
		expect(settings.n8nFolder).toBe(tmpdir());
		expect(settings.n8nFolder.startsWith(`${homedir()}/.n8n`)).toBe(false);
		expect(settings.encryptionKey).toMatch(/^[A-Za-z0-9+/=]{32}$/);
	});
});

describe('agents and tool names', () => {
	it('needs --agent when several nodes have tools, and lists them', async () => {
		const workflow = readWorkflowFile(workflowFixture('two-agents.json'));
		expect(() => selectAgent(workflow)).toThrow(AgentNotFoundError);
		expect(() => selectAgent(workflow)).toThrow(
			'Several agents in this workflow ("Agent A", "Agent B"): choose one with --agent NAME.',
		);
		expect(() => selectAgent(workflow, 'Agent C')).toThrow(
			/No agent named "Agent C": the agents are "Agent A", "Agent B"/,
		);
	});

	it('colliding node names get unique tool names, and each runs its own node', async () => {
		const { tools } = await loadWorkflowTools(workflowFixture('two-agents.json'), {
			host: await sharedHost(),
			agent: 'Agent A',
		});
		// "Hash text", "Hash_text" and "Hash  text!" all map to Hash_text; the disabled node is left out.
		expect(tools.map((tool) => [tool.name, tool.sourceNodeName])).toEqual([
			['Hash_text', 'Hash text'],
			['Hash_text_2', 'Hash_text'],
			['Hash_text_3', 'Hash  text!'],
		]);
		const results = await Promise.all(
			tools.map((tool) => tool.invoke({ text: 'collide' }, { toolCallId: tool.name })),
		);
		expect(results.map((result) => JSON.parse(result.content)[0].hash)).toEqual([
			digest('sha256', 'collide'),
			digest('md5', 'collide'),
			digest('sha1', 'collide'),
		]);
		const agentB = await loadWorkflowTools(workflowFixture('two-agents.json'), {
			host: await sharedHost(),
			agent: 'Agent B',
		});
		expect(agentB.tools.map((tool) => tool.name)).toEqual(['Stats']);
	});
});

describe('what the host cannot run', () => {
	it('a trigger connected as a tool fails with a message saying why', async () => {
		const host = await sharedHost();
		const node = {
			id: 't',
			name: 'Every hour',
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			position: [0, 0] as [number, number],
			parameters: {},
		};
		expect(() => host.assertRunnable(node)).toThrow(UnsupportedNodeError);
		const result = await host.runNode({ nodes: [node], connections: {} }, node, {});
		expect(result.error?.message).toBe(
			'Node "Every hour" (n8n-nodes-base.scheduleTrigger) is a trigger: it starts workflows and cannot run as a tool. Connect a node that processes data instead.',
		);
	});

	it('Python code needs a task runner', async () => {
		const host = await sharedHost();
		const node = {
			id: 'p',
			name: 'Py',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [0, 0] as [number, number],
			parameters: { language: 'python', pythonCode: 'return []' },
		};
		const result = await host.runNode({ nodes: [node], connections: {} }, node, {});
		expect(result.error?.message).toMatch(/runs Python, which needs n8n's Python task runner/);
	});
});

describe('credential sources', () => {
	it('merges env JSON, file and records, and never quotes secret text in errors', () => {
		const records = loadCredentialRecords({
			env: { TOOLBRIDGE_CREDENTIALS: '{"httpHeaderAuth":{"name":"A","value":"env"}}' },
			records: { Other: { token: 'x' } },
		});
		expect(Object.keys(records)).toEqual(['httpHeaderAuth', 'Other']);
		const secret = '{"a": {"value": "sk-live-secret"'; // not valid JSON
		expect(() => loadCredentialRecords({ env: { TOOLBRIDGE_CREDENTIALS: secret } })).toThrow(
			'Credentials in TOOLBRIDGE_CREDENTIALS are not valid JSON.',
		);
		expect(() =>
			loadCredentialRecords({ env: { TOOLBRIDGE_CREDENTIALS: '{"a": "sk-live-secret"}' } }),
		).toThrow(
			/^Credential "a" in TOOLBRIDGE_CREDENTIALS must be an object of credential fields\.$/,
		);
	});
});

describe('workflow input', () => {
	it('accepts the parsed export and JSON text, and rejects what is not a workflow', async () => {
		const { readFileSync } = await import('node:fs');
		const text = readFileSync(workflowFixture('two-agents.json'), 'utf8');
		const fromText = await loadWorkflowTools(text, { host: await sharedHost(), agent: 'Agent B' });
		const fromObject = await loadWorkflowTools(JSON.parse(text), {
			host: await sharedHost(),
			agent: 'Agent B',
		});
		expect(fromText.tools.map((tool) => tool.name)).toEqual(
			fromObject.tools.map((tool) => tool.name),
		);
		await expect(loadWorkflowTools('{ nope', { host: await sharedHost() })).rejects.toThrow(
			/^Workflow JSON text is not valid JSON/,
		);
		await expect(loadWorkflowTools({ nodes: [] }, { host: await sharedHost() })).rejects.toThrow(
			'workflow is not an n8n workflow: "connections" is missing.',
		);
	});
});
