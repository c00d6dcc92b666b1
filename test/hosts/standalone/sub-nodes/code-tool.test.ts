/**
 * n8n's Code Tool (and the n8n-nodes-base Code node) in the standalone host: the JavaScript runs
 * through n8n's own task runner code (`@n8n/task-runner`'s JsTaskRunner) in this process —
 * n8n's data proxy (`$json`, `$input`, `$(…)`, luxon), its require allow-list, its code wrapper.
 * Python is refused with the node named, as the standalone host has no Python runner.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { UnavailableToolsError } from '../../../../src/errors/unavailable-tools-error';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const workflow = agentWorkflow('Code tools', [
	langChainNode('Shout', 'toolCode', 1.3, {
		description: 'Uppercases the text given as query',
		language: 'javaScript',
		jsCode: 'return query.toUpperCase() + " / " + ($json.chatInput ?? "no chat input")',
	}),
	langChainNode('Add', 'toolCode', 1.3, {
		description: 'Adds a and b',
		language: 'javaScript',
		specifyInputSchema: true,
		schemaType: 'fromJson',
		jsonSchemaExample: '{"a": 1, "b": 2}',
		jsCode: 'return String(query.a + query.b)',
	}),
	langChainNode('Pick', 'toolCode', 1.3, {
		description: 'Picks a color',
		language: 'javaScript',
		specifyInputSchema: true,
		schemaType: 'manual',
		inputSchema: JSON.stringify({
			type: 'object',
			properties: {
				color: { type: 'string', enum: ['red', 'blue'], description: 'The color' },
				shades: { type: 'array', items: { type: 'number' } },
			},
			required: ['color'],
		}),
		jsCode: 'return `${query.color}:${(query.shades ?? []).length}`',
	}),
	langChainNode('Escape', 'toolCode', 1.3, {
		description: 'Tries to read a file',
		language: 'javaScript',
		jsCode:
			'try { return String(require("fs").readFileSync("/etc/hostname")) } catch (error) { return "blocked: " + error.message }',
	}),
	langChainNode('Broken', 'toolCode', 1.3, {
		description: 'Throws',
		language: 'javaScript',
		jsCode: 'throw new Error("boom in the code tool")',
	}),
]);

let host: StandaloneHost;
beforeAll(async () => {
	host = await StandaloneHost.create({ env: {} });
});

describe("n8n's Code Tool (JavaScript) through n8n's task runner code, in-process", () => {
	it("the schema n8n's AI Agent gives the model: input string, or the schema from the example / the manual JSON Schema", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		expect(loaded.tools.map((tool) => tool.name)).toEqual([
			'Shout',
			'Add',
			'Pick',
			'Escape',
			'Broken',
		]);
		expect(loaded.tools[1].parameters).toMatchObject({
			properties: { a: { type: 'number' }, b: { type: 'number' } },
			required: ['a', 'b'],
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it("calls run the code with n8n's data proxy and answer what n8n's tool answers", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const call = (name: string, args: Record<string, unknown>) =>
			loaded.tools.find((tool) => tool.name === name)!.invoke(args, { toolCallId: name });
		expect(await call('Shout', { input: 'hello' })).toMatchObject({
			content: 'HELLO / no chat input',
			isError: false,
		});
		expect((await call('Add', { a: 2, b: 40 })).content).toBe('42');
		expect((await call('Pick', { color: 'blue', shades: [1, 2, 3] })).content).toBe('blue:3');
		// n8n's require allow-list (NODE_FUNCTION_ALLOW_BUILTIN unset): no fs.
		expect((await call('Escape', { input: 'x' })).content).toMatch(
			/^blocked: Module 'fs' is disallowed/,
		);
		// The Code Tool reports a failing script as `There was an error: "…"`: an error observation.
		expect(await call('Broken', { input: 'x' })).toEqual({
			content: expect.stringContaining('boom in the code tool'),
			isError: true,
		});
		await loaded.close();
	});

	it("the agent's input item is $json for the tool's code (toolbridge run hands it the chat input)", async () => {
		const { buildAgentTools } =
			await import('../../../../src/hosts/standalone/agent-tools/build-agent-tools');
		const agent = workflow.nodes.find((node) => node.name === 'AI Agent')!;
		const built = await buildAgentTools(workflow, agent, host, {
			input: { chatInput: 'what is up' },
		});
		const shout = built.tools.find((tool) => tool.name === 'Shout')!;
		expect((await shout.invoke({ input: 'hi' }, { toolCallId: 's' })).content).toBe(
			'HI / what is up',
		);
		await built.close();
	});

	it('Python is refused with the node named and why', async () => {
		const python = agentWorkflow('Python tool', [
			langChainNode('Py', 'toolCode', 1.3, {
				description: 'python',
				language: 'python',
				pythonCode: 'return _query.upper()',
			}),
		]);
		const error = await loadWorkflowTools(python, { host }).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(UnavailableToolsError);
		expect((error as Error).message).toContain(
			`"Py" (@n8n/n8n-nodes-langchain.toolCode): its code is Python, which runs in n8n's Python task runner; that runner ships only with n8n's Docker image`,
		);
	});
});

describe('the n8n-nodes-base Code node runs too (same runner)', () => {
	it('runOnceForAllItems and runOnceForEachItem, with $input, $json and luxon', async () => {
		const code = (mode: string, jsCode: string) => ({
			id: 'code',
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [0, 0] as [number, number],
			parameters: { mode, language: 'javaScript', jsCode },
		});
		const workflowExport = { nodes: [], connections: {} };
		const all = await host.runNode(
			workflowExport,
			code(
				'runOnceForAllItems',
				'return $input.all().map((item) => ({ json: { doubled: item.json.n * 2 } }))',
			),
			{ n: 21 },
		);
		expect(all).toEqual({ items: [expect.objectContaining({ json: { doubled: 42 } })] });
		const each = await host.runNode(
			workflowExport,
			code('runOnceForEachItem', 'return { json: { year: DateTime.fromISO($json.date).year } }'),
			{ date: '2020-05-01' },
		);
		expect(each).toEqual({ items: [expect.objectContaining({ json: { year: 2020 } })] });
	});
});
