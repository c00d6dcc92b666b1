/**
 * The `$fromAI` check of the nodes connected to the orchestrator's `ai_tool` input, through
 * n8n-core's real WorkflowExecute and ExecuteContext (`getParentNodes` reads n8n's own
 * Workflow), with real n8n-nodes-base tool nodes. n8n builds the connected tools with ITS
 * scanner inside `getInputConnectionData`; the check must catch the problems before that,
 * with node, parameter path and position.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, type NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { findConnectedToolProblems } from '../../../../src/hosts/n8n/langchain/check-connected-tools';
import { runEngineWorkflow } from '../engine-workflow';

const AGENT_TYPE = 'n8n-nodes-toolbridge.agentOrchestrator';
const PROBE_TYPE = 'toolbridgeTest.probe';

function agentNode(options: INodeParameters = {}): INode {
	return {
		id: 'agent',
		name: 'Agent',
		type: AGENT_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: {
			authentication: 'openAiCompatibleApi',
			model: 'fake/model',
			prompt: 'Hash it.',
			options,
		},
		credentials: { openAiCompatibleApi: { id: '1', name: 'Fake model' } },
	};
}

function hashNode(name: string, value: string, extra: Partial<INode> = {}): INode {
	return {
		id: name,
		name,
		type: 'n8n-nodes-base.cryptoTool',
		typeVersion: 2,
		position: [0, 200],
		parameters: {
			type: 'SHA256',
			value,
			dataPropertyName: 'sha256',
			toolDescription: 'SHA-256 of a text',
		},
		...extra,
	};
}

/** A node that only reports what the check finds from inside a real n8n ExecuteContext. */
const probeType: INodeType = {
	description: {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Reports connected-tool problems',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		const problems = findConnectedToolProblems(this).map((problem) => ({
			node: problem.nodeName,
			path: problem.path,
			index: problem.index,
			code: problem.code,
		}));
		return [[{ json: { problems } as unknown as IDataObject }]];
	},
};

const gateType: INodeType = {
	description: {
		...probeType.description,
		name: 'reviewHitlTool',
		inputs: [NodeConnectionTypes.AiTool],
		outputs: [NodeConnectionTypes.AiTool],
	},
	async execute() {
		return [[{ json: { approved: true } }]];
	},
};

async function probe(tools: INode[], gatedTools?: Array<{ node: INode; gate: string }>) {
	const { output } = await runEngineWorkflow({
		agent: {
			id: 'probe',
			name: 'Agent',
			type: PROBE_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
		tools,
		gatedTools,
		nodeTypes: { [PROBE_TYPE]: probeType, 'toolbridgeTest.reviewHitlTool': gateType },
	});
	return output[0].json.problems as Array<{
		node: string;
		path: string;
		index: number;
		code: string;
	}>;
}

describe('checkConnectedTools inside n8n-core', () => {
	it('fails the orchestrator run before n8n builds the tools, naming node, parameter, position and what is allowed', async () => {
		const bad = "={{ $fromAI('bad key!', 'The text', 'string') }}";
		const run = runEngineWorkflow({
			agent: agentNode(),
			tools: [hashNode('Broken Hash', bad)],
			nodeTypes: { [AGENT_TYPE]: new AgentOrchestrator() },
		});
		const error = await run.catch((caught: unknown) => caught);
		// n8n-core hands the run's error back as a plain copy of the NodeOperationError.
		expect(error).toMatchObject({ name: 'NodeOperationError' });
		const { message, description, node } = error as NodeOperationError;
		expect(node?.name).toBe('Agent');
		expect(message).toContain("Node 'Broken Hash', parameter 'value', position ");
		// The position points at the key literal in the raw value.
		const position = Number(/position (\d+)/.exec(message)?.[1]);
		expect(bad.slice(position)).toMatch(/^'bad key!'|^\$fromAI/);
		expect(description).toMatch(/1–64 letters, digits/);
	});

	it('fails the in-process driver the same way', async () => {
		const error = await runEngineWorkflow({
			agent: agentNode({ toolExecution: 'inProcess' }),
			tools: [hashNode('Broken Hash', "={{ $fromAI('text', 'The text', 'strng') }}")],
			nodeTypes: { [AGENT_TYPE]: new AgentOrchestrator() },
		}).catch((caught: unknown) => caught);
		expect(error).toMatchObject({ name: 'NodeOperationError', node: { name: 'Agent' } });
		expect((error as Error).message).toMatch(
			/Node 'Broken Hash', parameter 'value', position \d+: .*strng/,
		);
	});

	it('lists every problem of every connected node, skips disabled nodes, and passes good nodes', async () => {
		const problems = await probe([
			hashNode('Good', "={{ $fromAI('text', 'The text', 'string') }}"),
			// What n8n's editor writes for "let the model define this parameter".
			hashNode(
				'Editor Override',
				"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('Text', ``, 'string') }}",
			),
			hashNode('Two Problems', "={{ $fromAI('a b') + $FROMAI('c') }}"),
			hashNode('Conflict', "={{ $fromAI('x', 'one', 'string') }}", {
				parameters: {
					type: 'SHA256',
					value: "={{ $fromAI('x', 'one', 'string') }}",
					dataPropertyName: "={{ $fromAI('x', 'one', 'number') }}",
				},
			}),
			hashNode('Disabled', "={{ $fromAI('bad key!') }}", { disabled: true }),
		]);
		const byNode = (name: string) => problems.filter((problem) => problem.node === name);
		expect(byNode('Good')).toEqual([]);
		expect(byNode('Editor Override')).toEqual([]);
		expect(byNode('Disabled')).toEqual([]);
		expect(
			byNode('Two Problems')
				.map((problem) => problem.code)
				.sort(),
		).toEqual(['FROM_AI_INVALID_KEY', 'FROM_AI_WRONG_CASE']);
		expect(
			byNode('Two Problems').every(
				(problem) => problem.path === 'value' && Number.isInteger(problem.index),
			),
		).toBe(true);
		expect(byNode('Conflict').map((problem) => problem.code)).toEqual(['FROM_AI_KEY_CONFLICT']);
	});

	it('also checks the tools behind a human-review gate', async () => {
		const gate: INode = {
			id: 'gate',
			name: 'Review',
			type: 'toolbridgeTest.reviewHitlTool',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const problems = await probe(
			[gate],
			[{ node: hashNode('Gated Hash', "={{ $fromAI('') }}"), gate: 'Review' }],
		);
		expect(problems).toEqual([expect.objectContaining({ node: 'Gated Hash', path: 'value' })]);
	});
});
