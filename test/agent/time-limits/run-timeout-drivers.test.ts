/**
 * The whole-run time limit on the in-process driver and on the node's engine path (n8n-core's
 * WorkflowExecute): the limit counts from the run's start across engine re-entries — the
 * time n8n spends running a tool node counts — so a run whose tool outlasts the limit stops
 * as `aborted` after the tool, with no further model call, on both drivers. (The serialized
 * model of the state has no timer.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatModelCaller } from '../../../src/agent/create-chat-model-caller';
import { RunTimeLimitReason } from '../../../src/agent/time-limits/run-time-limit';
import type { AgentStoppedError } from '../../../src/agent/agent-stopped-error';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../support/fake-chat-server';
import { drivers } from '../loop-drivers';
import { delayTool } from '../test-tools';

let server: FakeChatServer;
beforeAll(async () => {
	server = await startFakeChatServer({
		respond: ({ body }: FakeRequest) =>
			(body.messages as Array<{ role: string }>).some((message) => message.role === 'tool')
				? textReply('answered after the limit')
				: toolCallReply([
						{ id: 'slow1', name: 'wait_echo', arguments: { label: 'slow', ms: 1500 } },
					]),
	});
});
afterAll(async () => {
	await server?.close();
});

const timedDrivers = drivers.filter(([name]) => name !== 'serialized');

describe.each(timedDrivers)('whole-run time limit (%s driver)', (_name, drive) => {
	it('stops the run after a tool that outlasts the limit, without another model call', async () => {
		const start = server.requests.length;
		const tracker = { running: 0, maxRunning: 0, finished: [] as string[] };
		const error = (await drive({
			input: { config: { model: 'fake/model' }, prompt: 'wait' },
			tools: [delayTool(tracker)],
			callModel: createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } }),
			runTimeoutMs: 1000,
		}).catch((caught: unknown) => caught)) as AgentStoppedError;
		expect(error).toMatchObject({ code: 'AGENT_ABORTED' });
		expect(error.message).toContain(new RunTimeLimitReason(1000).message);
		// The tool call was made (and is reported); the model was not asked again.
		expect(error.steps.map((step) => step.tool)).toEqual(['wait_echo']);
		expect(server.requests.length - start).toBe(1);
	});
});
