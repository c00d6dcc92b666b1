import type { EngineResponse } from 'n8n-workflow';
import { EngineStateError } from '../../../errors/engine-state-error';
import type { EngineRunMetadata } from './engine-item';

/**
 * True when n8n resumes the node after one of our EngineRequests. n8n-core passes an
 * EngineResponse on EVERY execution (`{ actionResponses: [], metadata: {} }` on the first),
 * so "a response was given" does not mean "resumed".
 */
export function isEngineResumption(response: EngineResponse | undefined): boolean {
	const metadata = response?.metadata as Partial<EngineRunMetadata> | undefined;
	return typeof metadata === 'object' && metadata !== null && metadata.toolbridge !== undefined;
}

/**
 * The run state an EngineResponse carries back (the metadata of the request this package
 * returned before).
 *
 * @throws {EngineStateError} when the metadata holds no Agent Orchestrator state of version 1.
 */
export function readEngineMetadata(response: EngineResponse): EngineRunMetadata['toolbridge'] {
	const metadata = response.metadata as Partial<EngineRunMetadata> | undefined;
	const run = metadata?.toolbridge;
	if (!run || run.version !== 1 || !Array.isArray(run.items)) {
		throw new EngineStateError(
			'The node was resumed by n8n with tool results, but the request metadata holds no Agent Orchestrator state of version 1. ' +
				'Run the workflow again; if this keeps happening, set the option "Tool Execution" to "In-Process".',
		);
	}
	return run;
}
