/**
 * Where a sub-workflow comes from, through n8n-nodes-base's real Execute Workflow node run as
 * a tool by the standalone host: the workflows library (a folder or exports in hand) by id,
 * by the name n8n's "From list" locator remembered, and by name; JSON in the node
 * ("Parameter"); the calling file itself (`{{ $workflow.id }}`, or the author's instance id in
 * a file with its own Execute Workflow Trigger); and the clear error when none matches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { INode } from 'n8n-workflow';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { InvalidArgumentError } from '../../../../src/errors/invalid-argument-error';
import {
	addNumbersTool,
	callerWorkflow,
	executeWorkflowNode,
	ownSubWorkflow,
	SUB_WORKFLOWS_DIR,
	workflowLocator,
} from '../../../support/sub-workflow-nodes';
import { FIXTURE_PACKAGE } from '../../../tools/helpers';

const hostWith = (workflows?: string | object[]) =>
	StandaloneHost.create({ packageDirs: [FIXTURE_PACKAGE], env: {}, workflows: workflows as never });

async function callTool(
	workflow: ReturnType<typeof callerWorkflow>,
	host: StandaloneHost,
	args: Record<string, unknown> = {},
) {
	const { tools } = await loadWorkflowTools(workflow, { host });
	return tools[0].invoke(args, { toolCallId: 'c1' });
}

const sum5 = [{ sum: 5, got: JSON.stringify({ a: 2, b: 3 }) }];

describe('sub-workflow sources', () => {
	it('Database by id, from a --workflows folder: the model fills the inputs through $fromAI, the sub-workflow answers', async () => {
		const host = await hostWith(SUB_WORKFLOWS_DIR);
		const { tools } = await loadWorkflowTools(callerWorkflow([addNumbersTool()]), { host });
		expect(tools[0].parameters).toMatchObject({
			properties: {
				a: { type: 'number', description: 'first number' },
				b: { type: 'number', description: 'second number' },
			},
			required: ['a', 'b'],
		});
		const observation = await tools[0].invoke({ a: 2, b: 3 }, { toolCallId: 'c1' });
		expect(observation).toMatchObject({ isError: false, value: sum5 });
	});

	it('"From list" with an id of another instance: found by the name n8n remembered; exports in hand work as a library', async () => {
		const library = [JSON.parse(readFileSync(join(SUB_WORKFLOWS_DIR, 'add-numbers.json'), 'utf8'))];
		const stale = addNumbersTool(workflowLocator('Xy12AbC9', 'Add numbers'));
		expect(
			await callTool(callerWorkflow([stale]), await hostWith(library), { a: 2, b: 3 }),
		).toMatchObject({ isError: false, value: sum5 });
		const byName = addNumbersTool(workflowLocator('Add numbers'));
		expect(
			await callTool(callerWorkflow([byName]), await hostWith(SUB_WORKFLOWS_DIR), { a: 2, b: 3 }),
		).toMatchObject({ isError: false, value: sum5 });
	});

	it('Parameter: the workflow JSON written in the node runs (no id: it runs under the caller’s), its own calls included', async () => {
		const { id: _id, ...outer } = JSON.parse(
			readFileSync(join(SUB_WORKFLOWS_DIR, 'outer.json'), 'utf8'),
		);
		const inline = executeWorkflowNode('Outer', {
			source: 'parameter',
			workflowJson: JSON.stringify(outer),
		});
		expect(
			await callTool(callerWorkflow([inline]), await hostWith(SUB_WORKFLOWS_DIR)),
		).toMatchObject({
			isError: false,
			value: [{ sum: 42, got: JSON.stringify({ a: 40, b: 2 }) }],
		});
	});

	it.each([
		['{{ $workflow.id }}', '={{ $workflow.id }}'],
		["the author's instance id, in a file with its own trigger", 'aBcD1234efGH5678'],
	])(
		'this workflow — %s: the branch after its own Execute Workflow Trigger runs; nodes outside it need no package',
		async (_case, id) => {
			const shout = executeWorkflowNode(
				'Shout',
				{ workflowId: workflowLocator(id) },
				{ text: "={{ $fromAI('text', 'what to shout') }}" },
			);
			const own = ownSubWorkflow('Upper', ['text'], { shout: '={{ $json.text.toUpperCase() }}' });
			const notInstalled: INode = {
				id: 'model',
				name: 'Some model',
				type: 'n8n-nodes-not-installed.chatModel',
				typeVersion: 1,
				position: [0, -200],
				parameters: {},
			};
			const workflow = callerWorkflow([shout], {
				nodes: [...own.nodes, notInstalled],
				connections: {
					...own.connections,
					'Some model': {
						ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]],
					},
				},
			});
			expect(await callTool(workflow, await hostWith(), { text: 'hi there' })).toMatchObject({
				isError: false,
				value: [{ shout: 'HI THERE' }],
			});
		},
	);

	it('nothing matches and the caller has no trigger of its own: SUB_WORKFLOW_NOT_FOUND names the id, the remembered name and the folder', async () => {
		const missing = addNumbersTool(workflowLocator('nope42', 'Gone workflow'));
		const observation = await callTool(
			callerWorkflow([missing]),
			await hostWith(SUB_WORKFLOWS_DIR),
			{
				a: 1,
				b: 2,
			},
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toBe(
			`Error: node "Add" failed: Sub-workflow "nope42" ("Gone workflow") called by node "Add" was not found: none of the 7 workflows in ${SUB_WORKFLOWS_DIR} has that id or name, and the calling workflow has no Execute Workflow Trigger of its own. Export the sub-workflow from n8n and put its file in the workflows folder.`,
		);
		const withoutLibrary = await callTool(callerWorkflow([missing]), await hostWith(), {
			a: 1,
			b: 2,
		});
		expect(withoutLibrary.content).toContain('pass the exported sub-workflow with --workflows DIR');
	});

	it('the workflows option: a folder that cannot be read, or a value that is neither a path nor exports, is refused at once', async () => {
		await expect(hostWith('/nonexistent/folder')).rejects.toMatchObject({
			code: 'WORKFLOW_FILE_INVALID',
			message: 'Cannot read the workflows folder /nonexistent/folder: ENOENT.',
		});
		await expect(hostWith(42 as never)).rejects.toBeInstanceOf(InvalidArgumentError);
	});
});
