import { ChatOpenAICompletions } from '@langchain/openai';
import type { AgentTool } from '../../src/tools/agent-tool';

/** A numeric `--name value` argument of the bench command, else `fallback`. */
export function argument(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

/** The loop benches' trivial tool: one call per iteration, nothing to measure in it. */
export const incrementTool: AgentTool = {
	name: 'increment',
	description: 'Adds one to n',
	parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
	invoke: async (args) => ({ content: String(Number(args.n) + 1), isError: false }),
};

/**
 * ChatOpenAI's Chat Completions model (what `ChatOpenAI` delegates to) estimates token
 * counts after every streamed call with tiktoken, whose encoding it downloads on first use;
 * offline that download fails (with retries) on every call, a network cost that is not
 * LangChain's loop. This counts tokens as LangChain's own fallback does (length / 4),
 * cheaper than a real tiktoken count: the comparison errs in LangChain's favour.
 */
export class OfflineChatOpenAI extends ChatOpenAICompletions {
	override async getNumTokens(
		content: Parameters<ChatOpenAICompletions['getNumTokens']>[0],
	): Promise<number> {
		return Math.ceil((typeof content === 'string' ? content : JSON.stringify(content)).length / 4);
	}
}
