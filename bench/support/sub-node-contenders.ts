import type { CallModel } from '../../src/agent/call-model-step';
import type { ChatConnection } from '../../src/agent/create-chat-model-caller';

/** The Toolbridge Chat Model sub-node's contenders (LangChain round trip, native path); none until the sub-node exists. */
export async function subNodeContenders(_connection: ChatConnection): Promise<Array<{ name: string; callModel: CallModel }>> {
	return [];
}
