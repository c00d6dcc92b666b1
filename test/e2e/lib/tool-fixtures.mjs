// @ts-check
/**
 * Real n8n-nodes-base tools used by several scenarios, and the scripted fake model that
 * drives them: it asserts the tool schemas it is offered, calls both tools, and answers
 * with what the tools returned (so the final text is only right if the tools really ran).
 */
import { createHash } from 'node:crypto';

import { assertToolSchema, checkRequest, matchStreaming, toolMessages } from './fake-model.mjs';
import { node } from './workflows.mjs';

/** The manual description the model must see for the hash tool. */
export const HASH_TOOL_DESCRIPTION =
	'Returns the SHA-256 hex digest of an exact text. Call it for every hash request.';

/** Inputs the fake model sends to the tools. */
export const TOOL_INPUT = Object.freeze({
	text: 'toolbridge e2e: grüße, 🙂 & "quotes"',
	date: '2024-01-01',
	days: 3,
});

/** What the tools must produce, computed here independently of n8n. */
export const EXPECTED = Object.freeze({
	sha256: createHash('sha256').update(TOOL_INPUT.text, 'utf8').digest('hex'),
	newDate: '2024-01-04',
});

/**
 * Crypto (SHA-256) as a tool, `$fromAI('text')`, manual description. Tool name `Hash_Text`.
 * @returns {import('./workflows.mjs').WorkflowNode}
 */
export function hashTextTool() {
	return node('Hash Text', 'n8n-nodes-base.cryptoTool', 2, {
		action: 'hash',
		type: 'SHA256',
		value: "={{ $fromAI('text', 'The exact text to hash', 'string') }}",
		dataPropertyName: 'sha256',
		encoding: 'hex',
		descriptionType: 'manual',
		toolDescription: HASH_TOOL_DESCRIPTION,
	});
}

/**
 * Assert that a model request offers {@link hashTextTool} as the model must see it: `text`, a
 * required string, and the manual description.
 * @param {any} body request body
 * @returns {void}
 * @throws {Error} naming what differs
 */
export function assertHashToolSchema(body) {
	assertToolSchema(body, 'Hash_Text', {
		properties: { text: 'string' },
		required: ['text'],
		description: HASH_TOOL_DESCRIPTION,
	});
}

/**
 * The first turn of a scripted model that calls {@link hashTextTool} once: check the request
 * (path, key, model, the Hash_Text schema); while no tool result came back, the reply is the
 * call of Hash_Text with {@link TOOL_INPUT}'s text.
 * @param {any} request
 * @param {any} fake the fake chat server module
 * @param {{ model: string, callId: string, replyModel?: string }} options `replyModel`: the model
 *   the reply names (default: the fake's)
 * @returns {{ reply?: any, results: Array<{ tool_call_id: string, content: string }> }}
 * @throws {Error} when a check fails
 */
export function hashCallTurn(request, fake, { model, callId, replyModel }) {
	checkRequest(request, model);
	assertHashToolSchema(request.body);
	const results = toolMessages(request.body);
	if (results.length > 0) return { results };
	const call = { id: callId, name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } };
	const reply = fake.toolCallReply([call], replyModel ? { model: replyModel } : undefined);
	return { reply: matchStreaming(request, reply), results };
}

/**
 * Date & Time "add to date" as a tool, `$fromAI` string + number. Tool name `Add_Days`.
 * @returns {import('./workflows.mjs').WorkflowNode}
 */
export function addDaysTool() {
	return node('Add Days', 'n8n-nodes-base.dateTimeTool', 2, {
		operation: 'addToDate',
		magnitude: "={{ $fromAI('date', 'Start date, ISO 8601', 'string') }}",
		timeUnit: 'days',
		duration: "={{ $fromAI('days', 'How many days to add', 'number') }}",
		outputFieldName: 'newDate',
		options: {},
	});
}

/**
 * The scripted model for {@link hashTextTool} + {@link addDaysTool}:
 * request 1 → assert schemas, call both tools; request 2 → answer from the tool results.
 * @param {{ model?: string }} [expect] `model`: the model id the request must name
 * @returns {(request: any, fake: any) => any} a `respond` for ScenarioScope.startFake
 */
export function hashAndDateModel(expect = {}) {
	return (request, fake) => {
		checkRequest(request, expect.model);
		const body = request.body;
		// Every request must carry real, typed schemas (a fake that skipped this proves nothing).
		assertHashToolSchema(body);
		assertToolSchema(body, 'Add_Days', {
			properties: { date: 'string', days: 'number' },
			required: ['date', 'days'],
		});
		const results = toolMessages(body);
		if (results.length === 0) {
			return matchStreaming(
				request,
				fake.toolCallReply([
					{ id: 'call_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } },
					{
						id: 'call_days',
						name: 'Add_Days',
						arguments: { date: TOOL_INPUT.date, days: TOOL_INPUT.days },
					},
				]),
			);
		}
		const hashResult = results.find((result) => result.tool_call_id === 'call_hash');
		const dateResult = results.find((result) => result.tool_call_id === 'call_days');
		if (!hashResult || !dateResult)
			throw new Error(`tool results missing: ${JSON.stringify(results).slice(0, 800)}`);
		const digest = /[0-9a-f]{64}/.exec(hashResult.content)?.[0];
		const newDate = /\d{4}-\d{2}-\d{2}/.exec(dateResult.content)?.[0];
		if (!digest || !newDate)
			throw new Error(`unexpected tool results: ${JSON.stringify(results).slice(0, 800)}`);
		return matchStreaming(request, fake.textReply(`Digest: ${digest}. New date: ${newDate}.`));
	};
}

/**
 * Check a final answer against the independently computed values.
 * @param {unknown} answer
 * @returns {void}
 * @throws {Error} when the answer does not carry both
 */
export function assertHashAndDateAnswer(answer) {
	const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
	if (!text.includes(EXPECTED.sha256))
		throw new Error(`answer lacks the SHA-256 ${EXPECTED.sha256}: ${text.slice(0, 500)}`);
	if (!text.includes(EXPECTED.newDate))
		throw new Error(`answer lacks the date ${EXPECTED.newDate}: ${text.slice(0, 500)}`);
}
