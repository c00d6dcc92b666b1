import { describe, expect, it } from 'vitest';
import { defaultMaxAgentDepth } from '../../src/agent/modes/nested/agent-frame';
import { readMaxDepth, readValidatorSettings } from '../../src/node-settings/read-mode-settings';

/** A parameter getter over given values; absent names give the caller's default. */
function parameters(values: Record<string, unknown>) {
	return (name: string, fallback: unknown) => (name in values ? values[name] : fallback);
}

describe('mode settings, read the same way by both hosts', () => {
	it('validator: defaults, a trimmed tool name, and only a real true for Validate Only', () => {
		expect(readValidatorSettings(parameters({}))).toEqual({
			tool: undefined,
			maxAttempts: 3,
			validateOnly: false,
		});
		expect(
			readValidatorSettings(
				parameters({ validatorTool: '  Hash text ', maxAttempts: 5, validateOnly: true }),
			),
		).toEqual({ tool: 'Hash text', maxAttempts: 5, validateOnly: true });
		expect(
			readValidatorSettings(
				parameters({ validatorTool: null, maxAttempts: '2', validateOnly: 'true' }),
			),
		).toEqual({ tool: undefined, maxAttempts: 2, validateOnly: false });
	});

	it('nested: Max Depth when it is a number of at least 1, else undefined (the default applies)', () => {
		expect(readMaxDepth(parameters({}))).toBe(defaultMaxAgentDepth);
		expect(readMaxDepth(parameters({ maxDepth: 2 }))).toBe(2);
		expect(readMaxDepth(parameters({ maxDepth: 0 }))).toBeUndefined();
		expect(readMaxDepth(parameters({ maxDepth: 'deep' }))).toBeUndefined();
	});
});
