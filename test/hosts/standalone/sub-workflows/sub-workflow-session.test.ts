/**
 * A session's rules reach into sub-workflows: credentials come from the same records, the
 * secrets their nodes are handed are redacted from what leaves the session, and the session's
 * guard stands around each sub-workflow run (told which sub-workflow it is).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkflowSession } from '../../../../src/hosts/standalone/session/open-workflow-session';
import type { NodeRunGuard } from '../../../../src/hosts/standalone/node-run-guard';
import {
	callerWorkflow,
	executeWorkflowNode,
	SUB_WORKFLOWS_DIR,
	workflowLocator,
} from '../../../support/sub-workflow-nodes';
import { FIXTURE_PACKAGE } from '../../../tools/helpers';

const KEY = 'sk-loopback-sub-workflow-0123456789abcdef';
let server: Server;
let base: string;

beforeAll(async () => {
	// Echoes the key header it got: the secret comes back in the sub-workflow's output.
	server = createServer((request, response) => {
		response
			.writeHead(200, { 'content-type': 'application/json' })
			.end(JSON.stringify({ path: request.url, key: request.headers['x-key'] ?? null }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fetchTool = () =>
	executeWorkflowNode(
		'Fetch',
		{ workflowId: workflowLocator('sub-fetch') },
		{ url: "={{ $fromAI('url', 'what to fetch') }}" },
	);

describe('sessions and sub-workflows', () => {
	it("the sub-workflow's node gets its credential from the session's records; the secret is redacted on the way out", async () => {
		const session = await openWorkflowSession(callerWorkflow([fetchTool()]), {
			packageDirs: [FIXTURE_PACKAGE],
			env: {},
			workflows: SUB_WORKFLOWS_DIR,
			credentials: { 'Loopback key': { name: 'X-Key', value: KEY } },
		});
		const observation = await session.tools[0].invoke(
			{ url: `${base}/secret` },
			{ toolCallId: 's1' },
		);
		expect(observation.isError).toBe(false);
		expect(observation.content).toBe(JSON.stringify([{ path: '/secret', key: '[REDACTED]' }]));
		expect(observation.content).not.toContain(KEY);
	});

	it('a missing credential inside the sub-workflow: an error naming the sub-workflow and its node', async () => {
		const session = await openWorkflowSession(callerWorkflow([fetchTool()]), {
			packageDirs: [FIXTURE_PACKAGE],
			env: {},
			workflows: SUB_WORKFLOWS_DIR,
		});
		const observation = await session.tools[0].invoke({ url: `${base}/x` }, { toolCallId: 's2' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(
			/^Error: node "Fetch" failed: Sub-workflow "Fetch with key" failed at node "Fetch": .*Loopback key/,
		);
	});

	it("the session's guard stands around the node run and around each sub-workflow run, and may answer for it", async () => {
		const seen: string[] = [];
		const guard: NodeRunGuard = async ({ node, subWorkflow }, run) => {
			seen.push(subWorkflow ? `${node.name} → ${subWorkflow.name}` : node.name);
			if (subWorkflow?.name === 'Add numbers')
				return { items: [], error: { name: 'GuardError', message: 'not this one' } };
			return run();
		};
		const outer = executeWorkflowNode('Outer', { workflowId: workflowLocator('sub-outer') });
		const session = await openWorkflowSession(callerWorkflow([outer]), {
			packageDirs: [FIXTURE_PACKAGE],
			env: {},
			workflows: SUB_WORKFLOWS_DIR,
			guard,
		});
		const observation = await session.tools[0].invoke({}, { toolCallId: 'g1' });
		expect(seen).toEqual(['Outer', 'Outer → Outer', 'Call Add numbers → Add numbers']);
		expect(observation.content).toBe(
			'Error: node "Outer" failed: Sub-workflow "Outer" failed at node "Call Add numbers": Sub-workflow "Add numbers": not this one',
		);
	});
});
