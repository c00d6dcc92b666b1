/**
 * Runs a workflow "Start → Agent (+ ai_tool nodes)" through n8n-core's real WorkflowExecute,
 * so EngineRequests from the agent are handled by n8n's own engine code: each tool call is
 * a run of its node in `runData`, and the agent is executed again with the EngineResponse.
 * Node types: n8n-nodes-base (through the standalone host's registry, which derives
 * `…Tool` variants like the n8n CLI) plus the types a test passes in.
 */
import { WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowBase,
} from 'n8n-workflow';
import { OpenAiCompatibleApi } from '../../../credentials/OpenAiCompatibleApi.credentials';
import { createAdditionalData } from '../../../src/hosts/standalone/additional-data';
import { StandaloneCredentialsHelper } from '../../../src/hosts/standalone/standalone-credentials-helper';
import { StandaloneHost } from '../../../src/hosts/standalone/standalone-host';

let hostPromise: Promise<StandaloneHost> | undefined;
/** One standalone host (n8n-nodes-base index) per test file. */
export function sharedHost(): Promise<StandaloneHost> {
	hostPromise ??= StandaloneHost.create({ credentials: {} });
	return hostPromise;
}

/** An Agent Orchestrator node named `name` that reads its model from the `Fake model` credential (see {@link fakeModelCredentials}). */
export function orchestratorNode(name: string, parameters: INodeParameters): INode {
	return {
		id: name,
		name,
		type: 'n8n-nodes-toolbridge.agentOrchestrator',
		typeVersion: 1,
		position: [200, 0],
		parameters: { authentication: 'openAiCompatibleApi', ...parameters },
		credentials: { openAiCompatibleApi: { id: '1', name: 'Fake model' } },
	};
}

/** The `Fake model` credential of {@link orchestratorNode}: the key and base URL of a fake chat server. */
export function fakeModelCredentials(
	apiKey: string,
	url: string,
): Record<string, ICredentialDataDecryptedObject> {
	return { 'Fake model': { apiKey, url } };
}

export interface EngineWorkflow {
	/** The agent node (its type must be in `nodeTypes` or installed). */
	agent: INode;
	/** Nodes connected to the agent's ai_tool input. */
	tools: INode[];
	/** Tool nodes connected to another node's ai_tool input (e.g. a human-review gate), by target name. */
	gatedTools?: Array<{ node: INode; gate: string }>;
	/** Extra node types by full type name. */
	nodeTypes?: Record<string, INodeType>;
	/** The items the agent receives from the Start node. */
	items?: IDataObject[];
	/** Plain credential records by credential name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
}

export interface EngineWorkflowRun {
	run: IRun;
	/** The agent's output items (its last run). */
	output: INodeExecutionData[];
}

/** Runs the workflow to its end. */
export async function runEngineWorkflow(definition: EngineWorkflow): Promise<EngineWorkflowRun> {
	const host = await sharedHost();
	const extra = definition.nodeTypes ?? {};
	const nodeTypes: INodeTypes = {
		getByName: (type) => extra[type] ?? host.nodeTypes.getByName(type),
		getByNameAndVersion: (type, version) =>
			extra[type] ?? host.nodeTypes.getByNameAndVersion(type, version),
		getKnownTypes: () => host.nodeTypes.getKnownTypes(),
	};
	const credentialTypes = {
		getCredentialType: (name: string): ICredentialType =>
			name === 'openAiCompatibleApi'
				? new OpenAiCompatibleApi()
				: host.nodeTypes.getCredentialType(name),
	};
	const start: INode = {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const gated = definition.gatedTools ?? [];
	const nodes = [start, definition.agent, ...definition.tools, ...gated.map((entry) => entry.node)];
	const connections = {
		Start: { main: [[{ node: definition.agent.name, type: 'main' as const, index: 0 }]] },
		// n8n lists an agent's connected tools last-connected first: connect in reverse so the
		// agent sees them in the order given.
		...Object.fromEntries(
			[...definition.tools]
				.reverse()
				.map((tool) => [
					tool.name,
					{ ai_tool: [[{ node: definition.agent.name, type: 'ai_tool' as const, index: 0 }]] },
				]),
		),
		...Object.fromEntries(
			gated.map((entry) => [
				entry.node.name,
				{ ai_tool: [[{ node: entry.gate, type: 'ai_tool' as const, index: 0 }]] },
			]),
		),
	};
	const settings = { executionOrder: 'v1' as const, timezone: 'UTC' };
	const workflowData: IWorkflowBase = {
		id: 'engine-test',
		name: 'engine test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings,
	});
	const credentialsHelper = new StandaloneCredentialsHelper(
		definition.credentials ?? {},
		credentialTypes,
	);
	const additionalData = createAdditionalData({
		credentialsHelper,
		workflowData,
		nodeName: definition.agent.name,
	});
	const items = (definition.items ?? [{}]).map((json) => ({ json }));
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode('Start') ?? undefined,
		triggerToStartFrom: {
			name: 'Start',
			data: {
				data: { main: [items] },
				startTime: Date.now(),
				executionTime: 0,
				executionIndex: 0,
				source: [],
			},
		},
	});
	const agentRuns = run.data.resultData.runData[definition.agent.name] ?? [];
	const error = run.data.resultData.error;
	if (error) throw error;
	const output = agentRuns.at(-1)?.data?.main?.[0] ?? [];
	return { run, output };
}
