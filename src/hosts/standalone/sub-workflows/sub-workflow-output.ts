import type { INodeExecutionData, IRun } from 'n8n-workflow';
import type { WorkflowExport } from '../workflow-file';
import { EXECUTE_WORKFLOW_TRIGGER } from './resolve-sub-workflow';

/**
 * n8n's `buildSubWorkflowOutput`: the last executed node's `main` output — its last run only
 * when the caller asks (`returnLastRunOnly`) or the Execute Workflow Trigger is older than 1.2
 * and not set to "all runs"; else every run, merged per output branch in execution order.
 */
export function subWorkflowOutput(
	run: IRun,
	workflow: WorkflowExport,
	returnLastRunOnly: boolean,
): Array<INodeExecutionData[] | null> {
	const { runData, lastNodeExecuted } = run.data.resultData;
	const runs = lastNodeExecuted
		? [...(runData[lastNodeExecuted] ?? [])].sort(
				(a, b) => (a.executionIndex ?? 0) - (b.executionIndex ?? 0),
			)
		: [];
	const trigger = workflow.nodes.find((node) => node.type === EXECUTE_WORKFLOW_TRIGGER);
	const lastRunOnly =
		returnLastRunOnly ||
		((trigger?.typeVersion ?? 1) < 1.2 && trigger?.parameters?.returnOutput !== 'allRuns');
	if (!lastRunOnly && runs.length > 0) {
		const branches = Math.max(...runs.map((task) => task.data?.main?.length ?? 0));
		return Array.from({ length: branches }, (_, branch) =>
			runs.flatMap((task) => task.data?.main?.[branch] ?? []),
		);
	}
	const last = lastNodeExecuted ? runData[lastNodeExecuted]?.at(-1) : undefined;
	return last?.data?.main ?? [null];
}
