/**
 * n8n's Call n8n Workflow Tool (`toolWorkflow`) is supplied like any other tool sub-node: for
 * each version family the model gets the schema n8n's AI Agent gives it — `workflowInputs` with
 * `$fromAI` (2.2), a JSON example (1.0), one `input` string (1.3, 2.1). Running the sub-workflow
 * is `additionalData.executeWorkflow`'s job (sub-workflow support), not this test's.
 */
import { describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const subWorkflow = JSON.stringify({
	name: 'Echo',
	nodes: [
		{
			id: 't',
			name: 'When Executed by Another Workflow',
			type: 'n8n-nodes-base.executeWorkflowTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	],
	connections: {},
});

const workflow = agentWorkflow('Workflows as tools', [
	langChainNode('Add numbers', 'toolWorkflow', 2.2, {
		description: 'Adds two numbers',
		workflowId: { __rl: true, value: 'sub-add', mode: 'list', cachedResultName: 'Add numbers' },
		workflowInputs: {
			mappingMode: 'defineBelow',
			value: {
				a: "={{ $fromAI('a', 'first number', 'number') }}",
				b: "={{ $fromAI('b', '', 'number') }}",
			},
			matchingColumns: [],
			schema: ['a', 'b'].map((id) => ({
				id,
				displayName: id,
				required: false,
				defaultMatch: false,
				display: true,
				canBeUsedToMatch: true,
				type: 'number',
			})),
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		},
	}),
	langChainNode('Echo v21', 'toolWorkflow', 2.1, {
		name: 'echo_v21',
		description: 'Echo (JSON in node)',
		source: 'parameter',
		workflowJson: subWorkflow,
	}),
	langChainNode('Echo v13', 'toolWorkflow', 1.3, {
		name: 'echo_v13',
		description: 'Echo by id, with a fixed field',
		workflowId: { __rl: true, value: 'sub-echo', mode: 'list' },
		fields: { values: [{ name: 'extra', stringValue: 'fixed' }] },
	}),
	langChainNode('Echo v1', 'toolWorkflow', 1, {
		name: 'echo_v1',
		description: 'Echo, schema from example',
		workflowId: 'sub-echo',
		specifyInputSchema: true,
		schemaType: 'fromJson',
		jsonSchemaExample: '{"city":"Paris","days":3}',
	}),
]);

describe('Call n8n Workflow Tool through the sub-node mechanism', () => {
	it("every version family has the name, description and schema n8n's AI Agent gives the model", async () => {
		const host = await StandaloneHost.create({ env: {} });
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(reference.tools).toHaveLength(4);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		for (const tool of loaded.tools)
			expect(tool.nodeType).toBe('@n8n/n8n-nodes-langchain.toolWorkflow');
		const byNode = Object.fromEntries(loaded.tools.map((tool) => [tool.sourceNodeName, tool]));
		expect(byNode['Add numbers'].parameters).toMatchObject({
			properties: {
				a: { type: 'number', description: 'first number' },
				b: { type: 'number' },
			},
			required: ['a', 'b'],
		});
		expect(byNode['Echo v1'].parameters).toMatchObject({
			properties: { city: { type: 'string' }, days: { type: 'number' } },
		});
		expect(byNode['Echo v13'].parameters).toMatchObject({
			properties: { input: { type: 'string' } },
		});
		await Promise.all([loaded.close(), reference.close()]);
	});
});
