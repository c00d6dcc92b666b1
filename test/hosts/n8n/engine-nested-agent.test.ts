/**
 * A nested Agent Orchestrator under a parent whose tool calls n8n's engine runs, in a
 * workflow run by n8n-core's WorkflowExecute (as a real n8n 2.41 does, see the e2e row
 * `nested-orchestrator`): the engine runs the child as a node (its `execute()`, task in
 * `item.json`), whose output item is `{ output, … }`. The parent's model must read the
 * child's answer as plain text — as in-process — not `[{"output":"…"}]`, and the child's
 * usage (from its run's task metadata, whatever its output options) rolls up into the parent's.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import {
	textReply as fakeText,
	toolCallReply as fakeToolCalls,
	type FakeRequest,
	type FakeToolCall,
} from '../../support/fake-chat-server';
import { fakeChatServerForFile } from '../../support/fake-chat-server-hooks';
import { hashTextToolNode } from '../../support/real-tool-nodes';
import { fakeModelCredentials, orchestratorNode, runEngineWorkflow } from './engine-workflow';

const apiKey = 'sk-nested-0123456789abcdef0123456789abcdef';
const text = 'nested via the engine';
const digest = createHash('sha256').update(text).digest('hex');
const task = `Hash this: ${text}`;
const childAnswer = `The digest is ${digest}.`;

type Message = { role: string; content: string | null; tool_call_id?: string };

const parentToolMessages: string[] = [];
const server = fakeChatServerForFile({ respond: (request) => respond(request) });

// Distinct token counts per model, so the parent's total shows exactly what was rolled up.
const parentUsage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
const childUsage = { prompt_tokens: 1000, completion_tokens: 1, total_tokens: 1001 };

/** Parent (model fake/parent) calls Researcher; child (fake/child) calls Hash_text, then answers. */
function respond({ body }: FakeRequest) {
	const options = { usage: body.model === 'fake/parent' ? parentUsage : childUsage };
	const textReply = (text: string) => fakeText(text, options);
	const toolCallReply = (calls: FakeToolCall[]) => fakeToolCalls(calls, options);
	const messages = body.messages as Message[];
	const results = messages.filter((message) => message.role === 'tool');
	const properties = (name: string) =>
		(
			body.tools as Array<{
				function: { name: string; parameters: { properties: Record<string, { type?: string }> } };
			}>
		).find((tool) => tool.function.name === name)?.function.parameters.properties;
	if (body.model === 'fake/parent') {
		if (properties('Researcher')?.task?.type !== 'string') return textReply('SCHEMA MISSING');
		if (results.length === 0)
			return toolCallReply([{ id: 'r1', name: 'Researcher', arguments: { task } }]);
		parentToolMessages.push(results[0].content ?? '');
		return textReply(`Parent got: ${results[0].content}`);
	}
	if (properties('Hash_text')?.text?.type !== 'string') return textReply('SCHEMA MISSING');
	if (messages.find((message) => message.role === 'user')?.content !== task)
		return textReply('WRONG TASK');
	if (results.length === 0)
		return toolCallReply([{ id: 'h1', name: 'Hash_text', arguments: { text } }]);
	return textReply(childAnswer);
}

const hashNode = hashTextToolNode();

describe('nested Agent Orchestrator under an engine-driven parent (WorkflowExecute)', () => {
	// The child's usage reaches the parent whatever the child's output options; its item stays as asked.
	it.each([
		['on', { returnIntermediateSteps: true }],
		['off', {}],
	])(
		"gives the parent's model the child's plain text and rolls up the child's usage (child's intermediate steps %s)",
		async (_label, childOptions) => {
			parentToolMessages.length = 0;
			const { output, run } = await runEngineWorkflow({
				agent: orchestratorNode('Parent', {
					mode: 'full',
					model: 'fake/parent',
					prompt: 'Ask the researcher.',
					options: { returnIntermediateSteps: true },
				}),
				tools: [
					orchestratorNode('Researcher', {
						mode: 'nested',
						model: 'fake/child',
						toolDescription: 'Researches',
						options: childOptions,
					}),
				],
				gatedTools: [{ node: hashNode, gate: 'Researcher' }],
				nodeTypes: { 'n8n-nodes-toolbridge.agentOrchestrator': new AgentOrchestrator() },
				credentials: fakeModelCredentials(apiKey, server.baseUrl),
			});
			// The engine ran the child as a node (one run, on ai_tool), with the task in its input.
			const researcherRuns = run.data.resultData.runData.Researcher;
			expect(researcherRuns).toHaveLength(1);
			expect(researcherRuns[0].inputOverride?.ai_tool?.[0]?.[0]?.json).toEqual({ task });
			const childJson = researcherRuns[0].data?.ai_tool?.[0]?.[0]?.json ?? {};
			expect(childJson.output).toBe(childAnswer);
			if (!('returnIntermediateSteps' in childOptions))
				expect(childJson).toEqual({ output: childAnswer });

			// The child's usage (two child calls) is in its run's task metadata, outside its items.
			const childTotal = 2 * childUsage.total_tokens;
			expect(researcherRuns[0].metadata).toMatchObject({
				toolbridgeUsage: { promptTokens: 2 * childUsage.prompt_tokens, totalTokens: childTotal },
			});

			expect(parentToolMessages).toEqual([childAnswer]);
			expect(output[0].json.output).toBe(`Parent got: ${childAnswer}`);
			// Two parent calls plus the child's two.
			expect(output[0].json.usage).toMatchObject({
				promptTokens: 2 * parentUsage.prompt_tokens + 2 * childUsage.prompt_tokens,
				completionTokens: 2 * parentUsage.completion_tokens + 2 * childUsage.completion_tokens,
				totalTokens: 2 * parentUsage.total_tokens + childTotal,
			});
			const steps = output[0].json.steps as Array<{ tool: string; result: string }>;
			expect(steps.map((step) => [step.tool, step.result])).toEqual([['Researcher', childAnswer]]);
		},
	);
});
