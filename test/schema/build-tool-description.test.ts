import { describe, expect, test } from 'vitest';
import { NodeHelpers, type INode, type INodeTypeDescription } from 'n8n-workflow';
import nodeTypes from 'n8n-nodes-base/dist/types/nodes.json';
import { FromAIError } from '../../src/errors/from-ai-error';
import { buildToolDescription } from '../../src/schema/build-tool-description';

/** A real node type description from n8n-nodes-base, named as n8n names it. */
function nodeType(name: string, version?: number): INodeTypeDescription {
	const found = (nodeTypes as unknown as INodeTypeDescription[]).find(
		(description) =>
			description.name === name &&
			(version === undefined || ([] as number[]).concat(description.version).includes(version)),
	);
	if (!found) throw new Error(`no node type ${name}`);
	return { ...found, name: `n8n-nodes-base.${name}` };
}

function node(parameters: Record<string, unknown>): INode {
	return {
		id: '1',
		name: 'My Node',
		type: 'x',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	} as INode;
}

describe('buildToolDescription matches n8n getToolDescriptionForNode', () => {
	test.each([
		['action from operation + resource', 'slack', 2.2, { resource: 'message', operation: 'post' }],
		[
			'auto ignores a manual text',
			'slack',
			2.2,
			{
				resource: 'channel',
				operation: 'archive',
				descriptionType: 'auto',
				toolDescription: 'Ignored',
			},
		],
		[
			'operation + resource without action',
			'slack',
			2.2,
			{ resource: 'nothing', operation: 'frob' },
		],
		['node type description fallback', 'httpRequest', 4.2, {}],
		[
			'blank manual text → auto',
			'crypto',
			2,
			{ descriptionType: 'manual', toolDescription: '   ' },
		],
		[
			'manual text',
			'crypto',
			2,
			{ descriptionType: 'manual', toolDescription: 'Hash a value with SHA-256' },
		],
		['Code node language action', 'code', 2, { language: 'python' }],
		[
			'Date & Time v1 (operation shown by action, not resource)',
			'dateTime',
			1,
			{ action: 'calculate', operation: 'add' },
		],
	])('%s', (_name, typeName, version, parameters) => {
		const description = nodeType(typeName, version);
		const expected = NodeHelpers.getToolDescriptionForNode(node(parameters), {
			description,
		} as never);
		expect(buildToolDescription({ node: node(parameters), nodeTypeDescription: description })).toBe(
			expected,
		);
	});

	test('sanity: the table hits each branch', () => {
		expect(
			buildToolDescription({
				node: node({ resource: 'message', operation: 'post' }),
				nodeTypeDescription: nodeType('slack', 2.2),
			}),
		).toMatch(/ in Slack$/);
		expect(
			buildToolDescription({
				node: node({ resource: 'nothing', operation: 'frob' }),
				nodeTypeDescription: nodeType('slack', 2.2),
			}),
		).toBe('frob nothing in Slack');
	});
});

describe('buildToolDescription: a manual expression is resolved, never returned raw', () => {
	const crypto = nodeType('crypto', 2);

	test('resolved with resolveExpression', () => {
		const seen: string[] = [];
		const result = buildToolDescription({
			node: node({ descriptionType: 'manual', toolDescription: "={{ 'Hash ' + $json.kind }}" }),
			nodeTypeDescription: crypto,
			resolveExpression: (expression) => {
				seen.push(expression);
				return 'Hash text';
			},
		});
		expect(result).toBe('Hash text');
		expect(seen).toEqual(["={{ 'Hash ' + $json.kind }}"]);
	});

	test('n8n without a context returns the raw expression; we throw a FromAIError', () => {
		const parameters = { descriptionType: 'manual', toolDescription: '={{ $json.d }}' };
		expect(
			NodeHelpers.getToolDescriptionForNode(node(parameters), { description: crypto } as never),
		).toBe('={{ $json.d }}');
		let caught: unknown;
		try {
			buildToolDescription({ node: node(parameters), nodeTypeDescription: crypto });
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(FromAIError);
		expect((caught as FromAIError).code).toBe('FROM_AI_UNRESOLVED_DESCRIPTION');
		expect((caught as FromAIError).message).toMatch(
			/^Node 'My Node', parameter 'toolDescription': The tool description is an expression/,
		);
	});
});
