import type { INode } from 'n8n-workflow';
import type { CallModel } from '../../../agent/call-model-step';
import { ApiCallError } from '../../../errors/api-call-error';
import { ToolbridgeError } from '../../../errors/toolbridge-error';
import { containNodeRun } from '../node-run-containment';

/**
 * A chat-model node's model call (its own client library, e.g. Google's or AWS's SDK) run as a
 * node run is: an error the library throws or rejects outside the call's promise fails this
 * call (`StrayNodeError`), never the caller's process; and what the library itself rejects with
 * becomes an `ApiCallError` (`CHAT_MODEL_FAILED`, the provider's HTTP status when it gives one)
 * naming the node — a ToolbridgeError (time limit, abort, configuration) passes as it is.
 *
 * @throws {ApiCallError} `CHAT_MODEL_FAILED` when the provider's library fails the call.
 * @throws {StrayNodeError} when the library raises an error outside the call.
 */
export function containedModelCall(node: INode, callModel: CallModel): CallModel {
	const contained = async (...args: Parameters<CallModel>) => {
		try {
			return await containNodeRun(node, () => callModel(...args));
		} catch (error) {
			throw error instanceof ToolbridgeError ? error : modelCallError(error, node);
		}
	};
	return Object.assign(contained, { server: callModel.server });
}

function modelCallError(error: unknown, node: INode): ApiCallError {
	const details = error as { status?: unknown; statusCode?: unknown; code?: unknown };
	const status = [details.status, details.statusCode].find(
		(value): value is number => typeof value === 'number',
	);
	const message = error instanceof Error ? error.message : String(error);
	return new ApiCallError(
		`The model call of chat model "${node.name}" (${node.type}) failed: ${message}`,
		{
			status: status ?? 0,
			providerCode:
				typeof details.code === 'string' || typeof details.code === 'number'
					? details.code
					: undefined,
			cause: error,
		},
		'CHAT_MODEL_FAILED',
	);
}
