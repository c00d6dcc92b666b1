import type { EngineResponse, IExecuteFunctions, INodeType } from 'n8n-workflow';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';

/**
 * The real AgentOrchestrator node class, recording every EngineRequest an execution returns
 * (JSON, as n8n persists it with the execution) into `requests`.
 */
export function recordingAgent(requests: string[]): INodeType {
	const real = new AgentOrchestrator();
	return {
		description: real.description,
		async execute(this: IExecuteFunctions, response?: EngineResponse) {
			const output = await real.execute.call(this, response);
			if (output && !Array.isArray(output)) requests.push(JSON.stringify(output));
			return output;
		},
	} as INodeType;
}
