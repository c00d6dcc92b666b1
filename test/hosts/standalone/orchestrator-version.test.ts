import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { runWorkflowAgent } from '../../../src/hosts/standalone/run-workflow-agent';
import { startFakeChatServer, textReply, type FakeChatServer } from '../../support/fake-chat-server';
import { orchestratorType } from '../../support/real-tool-nodes';

const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };
const cryptoAgent = JSON.parse(readFileSync(resolve(__dirname, '../../../fixtures/workflows/crypto-agent.json'), 'utf8')) as { nodes: Array<Record<string, unknown>> };

/** The crypto-agent fixture with its orchestrator at `typeVersion` and `model` as given. */
function workflowWith(typeVersion: number, model: unknown) {
	const workflow = structuredClone(cryptoAgent);
	const agent = workflow.nodes.find((node) => node.type === orchestratorType)!;
	agent.typeVersion = typeVersion;
	(agent.parameters as Record<string, unknown>).model = model;
	return workflow;
}

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe('AgentOrchestrator versions in the standalone host', () => {
	it.each([
		['1.1 with a resource-locator model (list)', 1.1, { __rl: true, mode: 'list', value: 'openai/gpt-4.1', cachedResultName: 'OpenAI: GPT-4.1' }, 'openai/gpt-4.1'],
		['1.1 with a resource-locator model (by id, an expression)', 1.1, { __rl: true, mode: 'id', value: '={{ "meta/" + "llama" }}' }, 'meta/llama'],
		['1 with a string model', 1, 'openai/gpt-4.1-mini', 'openai/gpt-4.1-mini'],
	])('version %s runs', async (_name, typeVersion, model, sent) => {
		server = await startFakeChatServer({ respond: () => textReply('done') });
		const run = await runWorkflowAgent(workflowWith(typeVersion, model), { prompt: 'hi', baseUrl: server.baseUrl, apiKey: 'sk-or-v1-version-test-key', env: {}, nodeTypes: ownNodeTypes });
		expect(run.mode === 'full' && run.result.output).toBe('done');
		expect(server.requests[0].body.model).toBe(sent);
	});

	it('1.1 without a model parameter uses the resource locator\'s default', async () => {
		server = await startFakeChatServer({ respond: () => textReply('done') });
		const workflow = workflowWith(1.1, undefined);
		delete (workflow.nodes.find((node) => node.type === orchestratorType)!.parameters as Record<string, unknown>).model;
		await runWorkflowAgent(workflow, { prompt: 'hi', baseUrl: server.baseUrl, apiKey: 'sk-or-v1-version-test-key', env: {}, nodeTypes: ownNodeTypes });
		expect(server.requests[0].body.model).toBe('anthropic/claude-sonnet-4');
	});
});
