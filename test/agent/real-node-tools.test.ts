import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentToolFromLangChain } from '../../src/tools/agent-tool-from-langchain';
import type { AgentTool } from '../../src/tools/agent-tool';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { loadWorkflowTools } from '../../src/hosts/standalone/load-workflow-tools';
import { textReply, toolCallReply } from '../support/fake-chat-server';
import { fakeChatServerForFile } from '../support/fake-chat-server-hooks';
import { agentWorkflow, formatDateToolNode, hashTextToolNode } from '../support/real-tool-nodes';
import { drivers } from './loop-drivers';

/** An agent with two real n8n-nodes-base tools: Crypto (SHA-256) and Date & Time (format). */
const workflow = agentWorkflow('Agent', { prompt: '=x', options: {} }, [
	hashTextToolNode(),
	formatDateToolNode(),
]);

let bridgeTools: AgentTool[];
let adaptedTools: AgentTool[];
beforeAll(async () => {
	const loaded = await loadWorkflowTools(workflow);
	bridgeTools = loaded.tools;
	// The same tools through the LangChain adapter, as the node gets them from n8n.
	adaptedTools = loaded.langChainTools.map(agentToolFromLangChain);
});
const server = fakeChatServerForFile({
	respond: ({ body }) => {
		const messages = body.messages as Array<{ role: string; content: string }>;
		const results = messages.filter((message) => message.role === 'tool');
		if (results.length === 0 && messages.some((message) => message.content === 'bad date')) {
			return toolCallReply([
				{ id: 'bad1', name: 'Format_date', arguments: { date: 'the day after never' } },
			]);
		}
		if (results.length === 0) {
			// A fake that checks the schemas it receives: properties present and typed.
			const hash = (
				body.tools as Array<{
					function: { name: string; parameters: { properties: Record<string, { type: string }> } };
				}>
			).find((tool) => tool.function.name === 'Hash_text');
			if (hash?.function.parameters.properties.text?.type !== 'string')
				return textReply('SCHEMA MISSING');
			return toolCallReply([
				{ id: 'h1', name: 'Hash_text', arguments: { text: 'toolbridge' } },
				{ id: 'd1', name: 'Format_date', arguments: { date: '2024-02-29T10:00:00Z' } },
			]);
		}
		return textReply(results.map((result) => result.content).join(' | '));
	},
});

describe.each(drivers)('loop with real n8n-nodes-base tools (%s driver)', (_name, drive) => {
	it.each([
		['bridge AgentTools', () => bridgeTools],
		['LangChain tools through agentToolFromLangChain', () => adaptedTools],
	])('runs Crypto and Date & Time as tools (%s)', async (_label, tools) => {
		const callModel = createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } });
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'hash it' },
			tools: tools(),
			callModel,
		});
		const digest = createHash('sha256').update('toolbridge').digest('hex');
		expect(result.steps.map((step) => [step.tool, step.isError])).toEqual([
			['Hash_text', false],
			['Format_date', false],
		]);
		expect(result.steps[0].result).toContain(digest);
		expect(result.steps[1].result).toContain('2024');
		expect(result.output).toContain(digest);
	});

	it('hands a real node error to the model as an observation and goes on', async () => {
		const callModel = createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } });
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'bad date' },
			tools: bridgeTools,
			callModel,
		});
		expect(result.steps).toHaveLength(1);
		expect(result.steps[0]).toMatchObject({ tool: 'Format_date', isError: true });
		expect(result.steps[0].result).toMatch(/^Error/);
		expect(result.output).toBe(result.steps[0].result);
	});
});
