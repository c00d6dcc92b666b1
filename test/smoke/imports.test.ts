import { describe, expect, it } from 'vitest';
import { NodeHelpers } from 'n8n-workflow';
import { z } from 'zod';
import { DynamicStructuredTool } from '@langchain/core/tools';

describe('peer libraries resolve in the test runner', () => {
	it('loads n8n-workflow, zod and @langchain/core', () => {
		expect(typeof NodeHelpers.getVersionedNodeType).toBe('function');
		const tool = new DynamicStructuredTool({
			name: 't',
			description: 'd',
			schema: z.object({ a: z.string() }),
			func: async () => 'ok',
		});
		expect(tool.name).toBe('t');
	});
	it('loads n8n-core', async () => {
		const core = await import('n8n-core');
		expect(typeof core.WorkflowExecute).toBe('function');
	});
});

describe('one n8n-workflow instance', () => {
	it('n8n-core and the tests share the CJS build', async () => {
		const { createRequire } = await import('node:module');
		const requireFromCore = createRequire(require.resolve('n8n-core'));
		const fromCore = requireFromCore('n8n-workflow');
		const direct = await import('n8n-workflow');
		expect(direct.NodeOperationError).toBe(fromCore.NodeOperationError);
	});
});
