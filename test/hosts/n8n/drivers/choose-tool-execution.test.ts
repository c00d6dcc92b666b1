/**
 * Which driver the orchestrator picks on its first execution, by what this n8n offers:
 * n8n-core hands `execute()` an EngineResponse only where it handles engine requests
 * (n8n-core 1.112.1+); older n8n calls `execute()` with no argument.
 */
import type { EngineResponse, IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { chooseToolExecution } from '../../../../src/hosts/n8n/drivers/choose-tool-execution';
import { AgentConfigurationError } from '../../../../src/errors/agent-configuration-error';

const emptyResponse: EngineResponse = { actionResponses: [], metadata: {} };

function context(
	options: Record<string, unknown> = {},
	extra: Partial<Record<string, unknown>> = {},
): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Agent', parameters: { options } }),
		getNodeParameter: (name: string, _item: number, fallback: unknown) =>
			name === 'options.toolExecution' ? (options.toolExecution ?? fallback) : fallback,
		isToolExecution: () => false,
		getExecuteData: () => ({ source: { main: [{ previousNode: 'Start' }] } }),
		...extra,
	} as unknown as IExecuteFunctions;
}

describe('chooseToolExecution', () => {
	it.each([
		['engine where n8n passes an EngineResponse', context(), emptyResponse, 'engine'],
		['in-process where n8n passes none (n8n before 1.113)', context(), undefined, 'in-process'],
		[
			'in-process when the option says so',
			context({ toolExecution: 'inProcess' }),
			emptyResponse,
			'in-process',
		],
		[
			'in-process when the node runs as a tool',
			context({}, { isToolExecution: () => true }),
			emptyResponse,
			'in-process',
		],
		[
			'in-process without an input node',
			context({}, { getExecuteData: () => ({ source: null }) }),
			emptyResponse,
			'in-process',
		],
	])('%s', (_name, ctx, response, driver) => {
		expect(chooseToolExecution(ctx, response).driver).toBe(driver);
	});

	it('says why it runs in-process on an n8n without engine requests', () => {
		expect(chooseToolExecution(context(), undefined).reason).toMatch(
			/cannot take engine requests \(they arrived with n8n 1\.113\)/,
		);
	});

	it('refuses "Engine" chosen explicitly on an n8n without engine requests, naming the version it needs', () => {
		expect(() => chooseToolExecution(context({ toolExecution: 'engine' }), undefined)).toThrow(
			AgentConfigurationError,
		);
		expect(() => chooseToolExecution(context({ toolExecution: 'engine' }), undefined)).toThrow(
			/n8n 1\.113/,
		);
	});
});
