/**
 * The redaction boundary, end to end: every place a secret can be echoed (the model
 * server's HTTP error body, its mid-stream error, a broken chunk; a tool's error, a tool's
 * output) × every channel that leaves the core, in the library driver (`runAgent`), the
 * standalone host (`runWorkflowAgent`) and the Agent Orchestrator node in n8n-core's
 * WorkflowExecute (in-process and engine driver). The CLI's channels are in
 * packages/n8n-toolbridge/test/cli/redaction.test.ts.
 *
 * The model is the loopback fake; the tool is n8n's real HTTP Request tool against a
 * loopback API that echoes the credential header it received. Each cell checks that the
 * echo reached the channel (`[REDACTED]` is there) and that no part of a secret did.
 */
import type { INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import type { AgentEvent } from '../../src/agent/agent-event';
import type { AgentState } from '../../src/agent/agent-state';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { runAgent } from '../../src/agent/run-agent';
import { loadWorkflowTools } from '../../src/hosts/standalone/load-workflow-tools';
import { runWorkflowAgent } from '../../src/hosts/standalone/run-workflow-agent';
import { StandaloneHost } from '../../src/hosts/standalone/standalone-host';
import type { FakeRequest } from '../support/fake-chat-server';
import { orchestratorType } from '../support/real-tool-nodes';
import { recordingAgent } from '../support/recording-agent';
import {
	agentParameters,
	asText,
	errorText,
	getToolNode,
	locations,
	modelKey,
	modelSide,
	redactionCredentials,
	redactionWorkflow,
	secretFragments,
	startEchoApi,
	toolSecret,
	withModel,
	type Location,
} from '../support/redaction-scenarios';
import { orchestratorNode, runEngineWorkflow } from './n8n/engine-workflow';

/** This package's node, for the standalone host (the CLI passes the same). */
const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };

let api: Awaited<ReturnType<typeof startEchoApi>>;
beforeAll(async () => {
	api = await startEchoApi();
});
afterAll(() => api.close());

/** What one run put out, by channel. */
type Capture = Record<string, string>;

const toolMessages = (requests: FakeRequest[]) =>
	asText(
		requests.flatMap((request) =>
			(request.body.messages as Array<{ role: string }>).filter(
				(message) => message.role === 'tool',
			),
		),
	);
const toolChannels = [
	'model reads (tool message)',
	'steps[].result',
	'steps[].data',
	'state.messages',
	'events: step-end',
	'events: model-call-start request',
	'debug log',
];

/** Each host: how it runs a location, and which channels carry the echo of which location. */
interface HostCase {
	run(location: Location): Promise<Capture>;
	channels(location: Location): string[];
}

const hosts: Record<string, HostCase> = {
	'runAgent (library)': {
		channels: (location) =>
			modelSide(location) ? ['thrown error', 'state.failure', 'debug log'] : toolChannels,
		run: (location) =>
			withModel(location, api.base, async (baseUrl, requests) => {
				const host = await StandaloneHost.create({
					env: {},
					nodeTypes: ownNodeTypes,
					credentials: redactionCredentials(baseUrl),
				});
				const { tools } = await loadWorkflowTools(redactionWorkflow(), { host });
				const events: AgentEvent[] = [];
				let state: AgentState | undefined;
				let thrown: unknown;
				await runAgent({
					input: { config: { model: 'fake/model', maxIterations: 3 }, prompt: 'go' },
					tools,
					callModel: createChatModelCaller({ baseUrl, apiKey: modelKey }),
					secrets: [modelKey, toolSecret],
					debug: true,
					onEvent: (event) => events.push(event),
					onState: (next) => (state = next),
				}).catch((error: unknown) => (thrown = error));
				return {
					'thrown error': errorText(thrown),
					'state.failure': asText(state?.failure),
					'model reads (tool message)': toolMessages(requests),
					'steps[].result': asText(state?.steps.map((step) => step.result)),
					'steps[].data': asText(state?.steps.map((step) => step.data)),
					'state.messages': asText(state?.messages),
					'events: step-end': asText(events.filter((event) => event.type === 'step-end')),
					'events: model-call-start request': asText(
						events.filter((event) => event.type === 'model-call-start'),
					),
					'debug log': asText(events.filter((event) => event.type === 'debug')),
				};
			}),
	},
	'runWorkflowAgent (standalone host)': {
		channels: (location) => (modelSide(location) ? ['thrown error', 'debug log'] : toolChannels),
		run: (location) =>
			withModel(location, api.base, async (baseUrl, requests) => {
				const events: AgentEvent[] = [];
				let thrown: unknown;
				const options = {
					prompt: 'go',
					credentials: redactionCredentials(baseUrl),
					env: {},
					nodeTypes: ownNodeTypes,
					onEvent: (event: AgentEvent) => events.push(event),
				};
				const run = await runWorkflowAgent(redactionWorkflow(), options).catch((error: unknown) => {
					thrown = error;
					return undefined;
				});
				const full = run?.mode === 'full' ? run : undefined;
				return {
					'thrown error': errorText(thrown),
					'model reads (tool message)': toolMessages(requests),
					'steps[].result': asText(full?.result.steps.map((step) => step.result)),
					'steps[].data': asText(full?.result.steps.map((step) => step.data)),
					'state.messages': asText(full?.state.messages),
					'events: step-end': asText(events.filter((event) => event.type === 'step-end')),
					'events: model-call-start request': asText(
						events.filter((event) => event.type === 'model-call-start'),
					),
					'debug log': asText(events.filter((event) => event.type === 'debug')),
				};
			}),
	},
	'Agent Orchestrator node, in-process (n8n)': {
		channels: (location) => (modelSide(location) ? ['node error'] : ['node output item']),
		run: (location) =>
			withModel(location, api.base, async (baseUrl) => {
				// Inside n8n the node knows its own credential only: here the tool's key is also one of its extra headers (a shared gateway key).
				const credentials = redactionCredentials(baseUrl, {
					extraHeaders: JSON.stringify({ 'X-Tool-Gateway': toolSecret }),
				});
				const agent = orchestratorNode('Agent', {
					...agentParameters,
					options: { ...agentParameters.options, toolExecution: 'inProcess' },
				});
				try {
					const { output } = await runEngineWorkflow({
						agent,
						tools: [getToolNode()],
						items: [{ chatInput: 'go' }],
						credentials,
						nodeTypes: { [orchestratorType]: recordingAgent([]) },
					});
					const capture: Capture = { 'node output item': asText(output.map((item) => item.json)) };
					return capture;
				} catch (error) {
					const capture: Capture = { 'node error': errorText(error) };
					return capture;
				}
			}),
	},
	'Agent Orchestrator node, engine driver (n8n)': {
		channels: (location) =>
			modelSide(location)
				? ['node output item (continue on fail)']
				: ['node output item', 'engine request metadata'],
		run: (location) =>
			withModel(
				location,
				api.base,
				async (baseUrl) => {
					const credentials = redactionCredentials(baseUrl, {
						extraHeaders: JSON.stringify({ 'X-Tool-Gateway': toolSecret }),
					});
					const agent: INode = {
						...orchestratorNode('Agent', {
							...agentParameters,
							options: { ...agentParameters.options, toolExecution: 'engine' },
						}),
						onError: 'continueRegularOutput',
					};
					const requests: string[] = [];
					const { output } = await runEngineWorkflow({
						agent,
						tools: [getToolNode()],
						items: [{ chatInput: 'go' }],
						credentials,
						nodeTypes: { [orchestratorType]: recordingAgent(requests) },
					});
					const item = asText(output.map((entry) => entry.json));
					return {
						'node output item': item,
						'node output item (continue on fail)': item,
						'engine request metadata': requests.join('\n'),
					};
				},
				// Two tool rounds: the second EngineRequest carries the first observation in its state.
				2,
			),
	},
};

const captures = new Map<string, Promise<Capture>>();
function captureOf(hostName: string, location: Location): Promise<Capture> {
	const key = `${hostName}|${location}`;
	if (!captures.has(key)) captures.set(key, hosts[hostName].run(location));
	return captures.get(key) as Promise<Capture>;
}

const cells = Object.entries(hosts).flatMap(([hostName, hostCase]) =>
	locations.flatMap((location) =>
		hostCase
			.channels(location)
			.map((channel): [string, Location, string] => [hostName, location, channel]),
	),
);

describe('every secret a run knows is redacted: echo location × channel', () => {
	it.each(cells)(
		'%s · %s → %s',
		async (hostName, location, channel) => {
			const output = (await captureOf(hostName, location))[channel];
			expect(output, `the echo reached "${channel}"`).toContain('[REDACTED]');
			expect(secretFragments(output), `no part of a secret in "${channel}"`).toEqual([]);
		},
		60_000,
	);
});
