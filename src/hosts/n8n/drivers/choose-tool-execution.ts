import type { EngineResponse, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';

/** Which driver runs an execution's tool calls, and why. */
export interface ToolExecutionChoice {
	driver: 'engine' | 'in-process';
	reason: string;
}

/** The first n8n whose engine takes EngineRequests (n8n-core 1.112.1, PR #19193). */
export const ENGINE_REQUESTS_SINCE = 'n8n 1.113';

/**
 * Chooses the driver for one (first) execution of the node: the "Tool Execution" option
 * (default engine), unless n8n's engine cannot take an EngineRequest from this run:
 * - this n8n has no engine requests at all: n8n-core's WorkflowExecute hands `execute()` an
 *   EngineResponse (empty on the first run) only where it handles requests (n8n-core
 *   1.112.1+, `executeNode(…, subNodeExecutionResults)`); n8n-core 1.99 calls `execute()`
 *   with no argument. Chosen explicitly, "Engine" is then a configuration error;
 * - the node runs as a tool in-process (n8n-core `makeHandleToolInvocation`, a
 *   SupplyDataContext with `isToolExecution()`): n8n throws on a request there (#30773);
 * - the context has no execute data (not a real n8n-core ExecuteContext);
 * - the node has no parent on its main input: n8n-core ignores the request of such a node
 *   and never resumes it (`prepareRequestingNodeForResuming`).
 * Whether every tool can be traced to its node is known only once the tools are loaded:
 * the engine driver checks that (see `UntraceableToolsError`).
 *
 * @throws {AgentConfigurationError} when "Tool Execution" is set to "Engine" on an n8n without engine requests.
 */
export function chooseToolExecution(
	context: IExecuteFunctions,
	response?: EngineResponse,
): ToolExecutionChoice {
	const explicit = ((context.getNode().parameters?.options ?? {}) as IDataObject).toolExecution;
	const option = context.getNodeParameter('options.toolExecution', 0, 'engine') as string;
	if (option === 'inProcess')
		return { driver: 'in-process', reason: 'the option "Tool Execution" is "In-Process"' };
	const candidate = context as Partial<IExecuteFunctions>;
	if (typeof candidate.isToolExecution === 'function' && candidate.isToolExecution()) {
		return {
			driver: 'in-process',
			reason: 'the node runs as a tool in-process, where n8n cannot take engine requests',
		};
	}
	if (!isEngineResponse(response)) {
		if (explicit === 'engine') {
			throw new AgentConfigurationError(
				'toolExecution',
				`"Tool Execution" is "Engine", but this n8n cannot take engine requests (they arrived with ${ENGINE_REQUESTS_SINCE}). Set it to "In-Process", or update n8n.`,
			);
		}
		return {
			driver: 'in-process',
			reason: `this n8n cannot take engine requests (they arrived with ${ENGINE_REQUESTS_SINCE})`,
		};
	}
	if (typeof candidate.getExecuteData !== 'function')
		return { driver: 'in-process', reason: 'the execution context cannot take engine requests' };
	const parent = candidate.getExecuteData()?.source?.main?.[0]?.previousNode;
	if (typeof parent !== 'string' || parent === '') {
		return {
			driver: 'in-process',
			reason: 'the node has no input node, and n8n resumes only nodes that have one',
		};
	}
	return { driver: 'engine', reason: 'n8n runs each tool call as a node' };
}

/** What n8n-core's WorkflowExecute passes to `execute()` where it handles engine requests. */
function isEngineResponse(value: unknown): value is EngineResponse {
	return (
		typeof value === 'object' &&
		value !== null &&
		Array.isArray((value as { actionResponses?: unknown }).actionResponses)
	);
}
