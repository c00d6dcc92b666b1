/** Real-logic LangChain tools for loop tests, adapted with agentToolFromLangChain. */
import { createHash } from 'node:crypto';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { z } from 'zod';
import { agentToolFromLangChain } from '../../src/tools/agent-tool-from-langchain';
import type { AgentTool } from '../../src/tools/agent-tool';

export function addTool(): AgentTool {
	return agentToolFromLangChain(
		new DynamicStructuredTool({
			name: 'add',
			description: 'Adds two numbers',
			schema: z.object({ a: z.number(), b: z.number() }),
			func: async ({ a, b }) => JSON.stringify({ sum: a + b }),
		}),
	);
}

export function sha256Tool(): AgentTool {
	return agentToolFromLangChain(
		new DynamicStructuredTool({
			name: 'sha256',
			description: 'SHA-256 hex digest of a text',
			schema: z.object({ text: z.string().describe('the text to hash') }),
			func: async ({ text }) => createHash('sha256').update(text).digest('hex'),
		}),
	);
}

export function failingTool(message = 'disk full'): AgentTool {
	return agentToolFromLangChain(
		new DynamicStructuredTool({
			name: 'save_file',
			description: 'Saves a file',
			schema: z.object({ path: z.string() }),
			func: async () => {
				throw new Error(message);
			},
		}),
	);
}

/** Waits `ms` then echoes `label`; records how many run at once. */
export function delayTool(tracker: {
	running: number;
	maxRunning: number;
	finished: string[];
}): AgentTool {
	return agentToolFromLangChain(
		new DynamicStructuredTool({
			name: 'wait_echo',
			description: 'Waits, then echoes the label',
			schema: z.object({ label: z.string(), ms: z.number() }),
			func: async ({ label, ms }) => {
				tracker.running += 1;
				tracker.maxRunning = Math.max(tracker.maxRunning, tracker.running);
				await new Promise((resolve) => setTimeout(resolve, ms));
				tracker.running -= 1;
				tracker.finished.push(label);
				return `echo:${label}`;
			},
		}),
	);
}
