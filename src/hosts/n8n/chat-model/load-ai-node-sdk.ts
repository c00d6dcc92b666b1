import { createRequire } from 'node:module';
import { ToolbridgeError } from '../../../errors/toolbridge-error';

/** The part of `@n8n/ai-node-sdk` the chat-model sub-node uses. */
export type AiNodeSdk = Pick<typeof import('@n8n/ai-node-sdk'), 'BaseChatModel' | 'supplyModel'>;

/**
 * Loads n8n's `@n8n/ai-node-sdk` at run time. n8n ≥ 2.x ships it and puts its own modules on
 * `NODE_PATH`; this package must not bundle its own copy (an optional peer), so it is
 * required here, from this file, and never imported.
 *
 * @throws ToolbridgeError `AI_NODE_SDK_UNAVAILABLE` when it cannot be loaded (an older n8n).
 */
export function loadAiNodeSdk(
	requireModule: (id: string) => unknown = createRequire(__filename),
): AiNodeSdk {
	let sdk: Partial<AiNodeSdk>;
	try {
		sdk = requireModule('@n8n/ai-node-sdk') as Partial<AiNodeSdk>;
	} catch (error) {
		throw new ToolbridgeError(
			'AI_NODE_SDK_UNAVAILABLE',
			'This n8n has no @n8n/ai-node-sdk (n8n 2.x ships it), so the Toolbridge Chat Model works here only under an Agent Orchestrator (which calls it directly). Update n8n to use it under other AI nodes.',
			{ cause: error },
		);
	}
	if (typeof sdk.BaseChatModel !== 'function' || typeof sdk.supplyModel !== 'function') {
		throw new ToolbridgeError(
			'AI_NODE_SDK_UNAVAILABLE',
			'The @n8n/ai-node-sdk this n8n ships has no BaseChatModel or supplyModel; the Toolbridge Chat Model needs version 0.31 or later.',
		);
	}
	return sdk as AiNodeSdk;
}
