import type { IExecuteFunctions } from 'n8n-workflow';

/** Which driver runs an execution's tool calls, and why. */
export interface ToolExecutionChoice {
	driver: 'engine' | 'in-process';
	reason: string;
}

/**
 * Chooses the driver for one execution of the node: the "Tool Execution" option (default
 * engine), unless n8n's engine cannot take an EngineRequest from this run:
 * - the node runs as a tool in-process (n8n-core `makeHandleToolInvocation`, a
 *   SupplyDataContext with `isToolExecution()`): n8n throws on a request there (#30773);
 * - the context has no execute data (not a real n8n-core ExecuteContext);
 * - the node has no parent on its main input: n8n-core ignores the request of such a node
 *   and never resumes it (`prepareRequestingNodeForResuming`).
 */
export function chooseToolExecution(context: IExecuteFunctions): ToolExecutionChoice {
	const option = context.getNodeParameter('options.toolExecution', 0, 'engine') as string;
	if (option === 'inProcess') return { driver: 'in-process', reason: 'the option "Tool Execution" is "In-Process"' };
	const candidate = context as Partial<IExecuteFunctions>;
	if (typeof candidate.isToolExecution === 'function' && candidate.isToolExecution()) {
		return { driver: 'in-process', reason: 'the node runs as a tool in-process, where n8n cannot take engine requests' };
	}
	if (typeof candidate.getExecuteData !== 'function') return { driver: 'in-process', reason: 'the execution context cannot take engine requests' };
	const parent = candidate.getExecuteData()?.source?.main?.[0]?.previousNode;
	if (typeof parent !== 'string' || parent === '') {
		return { driver: 'in-process', reason: 'the node has no input node, and n8n resumes only nodes that have one' };
	}
	return { driver: 'engine', reason: 'n8n runs each tool call as a node' };
}
