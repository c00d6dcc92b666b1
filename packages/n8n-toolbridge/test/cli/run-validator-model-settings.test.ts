/**
 * `toolbridge run` on a validator-mode node sends every model setting the node has, as the
 * node does inside n8n: all 14 (the model and the 13 options of the model-options table). It
 * used to send 4 (model, temperature, max tokens, reasoning). OpenRouter is reached by its
 * real URL (the global fetch sends openrouter.ai to the loopback fake), so OpenRouter's own
 * fields are sent too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import { modelOptionKeys } from '../../../../src/agent/model-options';
import {
	startFakeChatServer,
	toolCallReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';

const root = resolve(__dirname, '../../../..');
const openRouterUrl = 'https://openrouter.ai/api/v1';
const model = 'anthropic/claude-sonnet-4';

let server: FakeChatServer | undefined;
afterEach(async () => {
	vi.unstubAllGlobals();
	await server?.close();
	server = undefined;
});

/** The validator fixture with every model option set on its orchestrator. */
function validatorWithEveryModelOption(): string {
	const workflow = JSON.parse(
		readFileSync(join(root, 'fixtures/workflows/validator-record.json'), 'utf8'),
	);
	const agent = workflow.nodes.find((node: { name: string }) => node.name === 'Record Validator');
	agent.parameters.model = model;
	agent.parameters.options = {
		...agent.parameters.options,
		promptCaching: true,
		fallbackModels: 'openai/gpt-4.1-mini',
		providerOrder: 'anthropic',
		temperature: 0.2,
		maxTokens: 300,
		topP: 0.9,
		topK: 40,
		frequencyPenalty: 0.5,
		presencePenalty: -0.5,
		seed: 7,
		stopSequences: 'END',
		reasoningEffort: 'low',
		providerOptions: '{"transforms":["middle-out"]}',
	};
	const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-validator-')), 'validator.json');
	writeFileSync(file, JSON.stringify(workflow));
	return file;
}

describe('toolbridge run, validator mode: the model settings', () => {
	it('sends all 14 model settings, as the node does inside n8n', async () => {
		server = await startFakeChatServer({
			respond: () =>
				toolCallReply([
					{ id: 'call_1', name: 'Make_record', arguments: { name: 'Ada', age: 36, vip: true } },
				]),
		});
		const fake = server;
		const realFetch = globalThis.fetch;
		vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) =>
			realFetch(String(input).replace(openRouterUrl, fake.baseUrl), init),
		);
		let stderr = '';
		const code = await runCli(
			[
				'run',
				validatorWithEveryModelOption(),
				'--prompt',
				'Ada is 36',
				'--api-key',
				'sk-or-test-validator-settings',
				'--json',
			],
			commands,
			{ stdout: () => undefined, stderr: (text) => (stderr += text), env: {} },
		);
		expect(code, stderr).toBe(0);
		const { body } = fake.requests[0];
		// One wire field per setting: the model and the table's 13 options.
		const sent = {
			model: body.model,
			promptCaching: body.messages[0].content[0].cache_control,
			fallbackModels: body.models,
			providerPreferences: body.provider,
			temperature: body.temperature,
			maxTokens: body.max_tokens,
			topP: body.top_p,
			topK: body.top_k,
			frequencyPenalty: body.frequency_penalty,
			presencePenalty: body.presence_penalty,
			seed: body.seed,
			stop: body.stop,
			reasoning: body.reasoning,
			providerOptions: body.transforms,
		};
		expect(Object.keys(sent).sort()).toEqual(['model', ...modelOptionKeys].sort());
		expect(sent).toEqual({
			model,
			promptCaching: { type: 'ephemeral' },
			fallbackModels: [model, 'openai/gpt-4.1-mini'],
			providerPreferences: { order: ['anthropic'] },
			temperature: 0.2,
			maxTokens: 300,
			topP: 0.9,
			topK: 40,
			frequencyPenalty: 0.5,
			presencePenalty: -0.5,
			seed: 7,
			stop: ['END'],
			reasoning: { effort: 'low' },
			providerOptions: ['middle-out'],
		});
	});
});
