import { createHash } from 'node:crypto';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { z } from 'zod';

/** SHA-256 hex of a text: what the hash tool answers. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A connected tool as n8n hands it over: a LangChain tool, traced to its node (`Hash`). */
export const hashTool = (): DynamicStructuredTool =>
	new DynamicStructuredTool({
		name: 'hash',
		description: 'SHA-256 hex of a text',
		schema: z.object({ text: z.string() }),
		func: async ({ text }) => sha256(text),
		metadata: { sourceNodeName: 'Hash' },
	});
