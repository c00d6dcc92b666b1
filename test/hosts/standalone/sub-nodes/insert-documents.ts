/**
 * Puts documents into a vector store the way an n8n workflow does it: a run (n8n-core's
 * `WorkflowExecute`, the host's node types and credentials) of Manual Trigger → Set → Split
 * Out → the store in `insert` mode, with its embeddings sub-node and n8n's Default Data Loader.
 */
import type { INode } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';
import { createAdditionalData } from '../../../../src/hosts/standalone/additional-data';
import { partialWorkflow } from '../../../../src/hosts/standalone/one-node-workflow';
import type { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

/**
 * Inserts `texts` (one document each) through `store` (a vector store node; its mode is set to
 * `insert`) and `embeddings`.
 * @throws when the run fails, with n8n's message.
 */
export async function insertDocuments(
	host: StandaloneHost,
	store: INode,
	embeddings: INode,
	texts: string[],
): Promise<number> {
	const nodes: INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'docs',
			name: 'Docs',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [0, 0],
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ docs: texts }), options: {} },
		},
		{
			id: 'split',
			name: 'Split',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [0, 0],
			parameters: { fieldToSplitOut: 'docs', options: {} },
		},
		{ ...store, parameters: { ...store.parameters, mode: 'insert' } },
		embeddings,
		langChainNode('Loader', 'documentDefaultDataLoader', 1.1, {
			jsonMode: 'expressionData',
			jsonData: '={{ $json.docs }}',
			textSplittingMode: 'simple',
			options: {},
		}),
	];
	const main = (to: string) => ({ main: [[{ node: to, type: 'main' as const, index: 0 }]] });
	const { connections } = agentWorkflow(
		'insert',
		[],
		[],
		[
			{ from: embeddings.name, to: store.name, type: 'ai_embedding' },
			{ from: 'Loader', to: store.name, type: 'ai_document' },
		],
	);
	Object.assign(connections, { Start: main('Docs'), Docs: main('Split'), Split: main(store.name) });
	const { workflow, workflowData } = partialWorkflow(structuredClone(nodes), connections, {
		workflow: { id: 'insert-documents', name: 'Insert documents' },
		nodeTypes: host.nodeTypes,
	});
	const additionalData = createAdditionalData({
		credentialsHelper: host.credentialsHelper,
		workflowData,
		nodeName: store.name,
	});
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode('Start')!,
	});
	const task = run.data.resultData.runData[store.name]?.[0];
	const error = task?.error ?? run.data.resultData.error;
	if (error) throw new Error(`insert failed: ${error.message}`);
	return task?.data?.main?.[0]?.length ?? 0;
}
