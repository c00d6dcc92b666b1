/**
 * `$('Node')` in an agent node's expressions, evaluated by n8n's own expression engine over the
 * pinned output of other nodes (`nodeReferences`): item, first/last/all, isExecuted, and the
 * error for a node without output.
 */
import type { INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { nodeReferences, pinnedNodeData } from '../../../../src/hosts/standalone/node-references';
import { createNodeParameterReader } from '../../../../src/hosts/standalone/workflow/node-parameter-reader';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';
import { UnresolvedNodeReferenceError } from '../../../../src/errors/unresolved-node-reference-error';

const node = (name: string, parameters: INode['parameters'] = {}): INode => ({
	id: name,
	name,
	type: '@n8n/n8n-nodes-langchain.agent',
	typeVersion: 3.1,
	position: [0, 0],
	parameters,
});

const workflow: WorkflowExport = {
	nodes: [node('Trigger'), node('Never ran'), node('AI Agent')],
	connections: {},
	pinData: { Trigger: [{ json: { n: 1 } }, { json: { n: 2 } }] },
};

function read(expression: string, pins?: Record<string, unknown>): unknown {
	const references = nodeReferences(workflow, pinnedNodeData(workflow, pins));
	const reader = createNodeParameterReader(node('AI Agent', { text: expression }), {
		item: { chatInput: 'hi' },
		references: { nodeReferences: references, agentName: 'AI Agent' },
	});
	return reader.get('text');
}

describe("$('Node') over pinned output", () => {
	it.each([
		["={{ $('Trigger').item.json.n }}", 1],
		["={{ $('Trigger').first().json.n }}", 1],
		["={{ $('Trigger').last().json.n }}", 2],
		["={{ $('Trigger').all().length }}", 2],
		["={{ $('Trigger').isExecuted }}", true],
		["={{ $('Never ran').isExecuted }}", false],
		["={{ $('Never ran').isExecuted ? $('Never ran').item.json.n : 'none' }}", 'none'],
		['={{ $json.chatInput }}', 'hi'],
	])('%s → %s', (expression, expected) => {
		expect(read(expression)).toBe(expected);
	});

	it('pins win over pinData; an object is one item, an array several, { json } items as they are', () => {
		expect(read("={{ $('Trigger').item.json.n }}", { Trigger: { n: 9 } })).toBe(9);
		expect(
			read("={{ $('Trigger').last().json.n }}", { Trigger: [{ n: 3 }, { json: { n: 4 } }] }),
		).toBe(4);
	});

	it.each([
		["={{ $('Never ran').item.json.n }}", 'Never ran', true],
		["={{ $('Nowhere').first().json.n }}", 'Nowhere', false],
	])(
		'%s: UnresolvedNodeReferenceError naming node, agent and parameter',
		(expression, nodeName, nodeExists) => {
			let caught: unknown;
			try {
				read(expression);
			} catch (error) {
				caught = error;
			}
			expect(caught).toBeInstanceOf(UnresolvedNodeReferenceError);
			expect(caught).toMatchObject({
				code: 'UNRESOLVED_NODE_REFERENCE',
				agentName: 'AI Agent',
				parameterPath: 'AI Agent › text',
				nodeName,
				nodeExists,
			});
			expect((caught as Error).message).toContain(`--pin '${nodeName}=`);
		},
	);
});
