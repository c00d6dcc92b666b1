import { describe, expect, it } from 'vitest';
import { MidStreamError } from '../../src/errors/mid-stream-error';
import { ApiCallError } from '../../src/errors/api-call-error';
import { Redactor } from '../../src/chat/redactor';
import { truncateText } from '../../src/tools/truncate-text';

const key = 'sk-or-v1-0123456789abcdef';
const token = 'tok_9f8e7d6c5b';

describe('Redactor.text', () => {
	it.each([
		['a known secret', ['abcdef123'], 'key abcdef123 used', 'key [REDACTED] used'],
		['every occurrence', ['abcdef123'], 'abcdef123/abcdef123', '[REDACTED]/[REDACTED]'],
		['a value shorter than 6 characters is not a secret', ['abc12'], 'abc12 stays', 'abc12 stays'],
		[
			'the longest secret first: one that contains another is replaced whole',
			['secret', 'secret-and-more'],
			'x secret-and-more y',
			'x [REDACTED] y',
		],
		[
			'as JSON text escapes it',
			['pa"ss\\word'],
			JSON.stringify({ error: 'pa"ss\\word' }),
			'{"error":"[REDACTED]"}',
		],
		['as a URL encodes it', ['a b/c+d=e'], 'GET /x?key=a%20b%2Fc%2Bd%3De', 'GET /x?key=[REDACTED]'],
		[
			'regex characters in a secret are literal',
			['a.b*c(d)'],
			'a.b*c(d) axbbbcd',
			'[REDACTED] axbbbcd',
		],
		[
			'bearer tokens by their shape',
			[],
			'Authorization: Bearer abcdefgh12345',
			'Authorization: [REDACTED]',
		],
		['sk- keys by their shape', [], 'key sk-abcdefghijklmnop1234', 'key [REDACTED]'],
		[
			'empty, null and undefined secrets are ignored',
			['', null, undefined],
			'nothing here',
			'nothing here',
		],
	])('%s', (_label, secrets, text, expected) => {
		expect(new Redactor(secrets).text(text)).toBe(expected);
	});

	it('a secret cut by the output cap leaves no start of it before the note', () => {
		const text = truncateText(`${'x'.repeat(95)}${token} after`, 100);
		expect(text).toContain(token.slice(0, 5));
		const redacted = new Redactor([token]).text(text);
		expect(redacted).not.toContain(token.slice(0, 3));
		expect(redacted).toBe(
			`${'x'.repeat(95)}[REDACTED]\n[Output truncated: showing the first 100 of ${95 + token.length + 6} characters.]`,
		);
	});

	it('the cut-secret rule leaves text before a note alone when it is no secret start', () => {
		const text = truncateText('y'.repeat(200), 100);
		expect(new Redactor([token]).text(text)).toBe(text);
	});

	it('with() adds secrets; the list is distinct and longest first', () => {
		const redactor = new Redactor(['secret-one']).with(['secret-two-longer', 'secret-one']);
		expect(redactor.secrets).toEqual(['secret-two-longer', 'secret-one']);
	});
});

describe('Redactor.value', () => {
	it('redacts strings and keys at any depth, copying only what changed', () => {
		const untouched = { plain: [1, 'two', { three: true }] };
		const value = {
			untouched,
			steps: [{ result: `echo ${token}`, data: { error: { message: `bad ${token}` } } }],
			[token]: 1,
		};
		const redacted = new Redactor([token]).value(value);
		expect(redacted).toEqual({
			untouched,
			steps: [{ result: 'echo [REDACTED]', data: { error: { message: 'bad [REDACTED]' } } }],
			'[REDACTED]': 1,
		});
		expect(redacted.untouched).toBe(untouched);
		expect(value.steps[0].result).toBe(`echo ${token}`);
	});

	it('leaves non-plain objects (dates, buffers, class instances) as they are', () => {
		const date = new Date(0);
		const buffer = Buffer.from(token);
		expect(new Redactor([token]).value({ date, buffer })).toEqual({ date, buffer });
	});
});

describe('Redactor.error', () => {
	it('redacts message, stack, fields and the cause chain in place; the class stays', () => {
		const cause = new Error(`socket for ${key}`);
		const error = new ApiCallError(`HTTP 401: invalid key ${key}`, {
			status: 401,
			responseBody: `{"key":"${key}"}`,
			cause,
		});
		const redacted = new Redactor([key]).error(error);
		expect(redacted).toBe(error);
		expect(redacted).toBeInstanceOf(ApiCallError);
		expect(error.message).toBe('HTTP 401: invalid key [REDACTED]');
		expect(error.stack).not.toContain(key);
		expect(error.responseBody).toBe('{"key":"[REDACTED]"}');
		expect(cause.message).toBe('socket for [REDACTED]');
	});

	it.each([
		['a thrown string', `failed with ${key}`, 'failed with [REDACTED]'],
		[
			'a thrown plain object',
			{ message: `failed with ${key}` },
			{ message: 'failed with [REDACTED]' },
		],
		['a thrown number', 42, 42],
	])('%s', (_label, thrown, expected) => {
		expect(new Redactor([key]).error(thrown)).toEqual(expected);
	});

	it('copes with a cause cycle', () => {
		const error = new MidStreamError(`echo ${key}`);
		(error as { cause?: unknown }).cause = error;
		expect(new Redactor([key]).error(error).message).toBe(
			'The model provider failed mid-stream: echo [REDACTED]',
		);
	});
});

describe('Redactor.learn and with', () => {
	it('a secret learned later is replaced from then on, by the redactor and by every one made from it', () => {
		const host = new Redactor();
		const session = host.with(['session-key-123456']);
		const run = session.with(['agent-key-abcdef']);
		const token = 'refreshed-token-7e9f01';
		expect(run.text(`${token} session-key-123456 agent-key-abcdef`)).toBe(
			`${token} [REDACTED] [REDACTED]`,
		);
		host.learn([token, 'short']);
		expect(run.text(`${token} and "${token}"`)).toBe('[REDACTED] and "[REDACTED]"');
		expect(session.secrets).toEqual([token, 'session-key-123456']);
		expect(run.longestSecretText).toBe(token.length);
		// The parent knows nothing of its children's own secrets.
		expect(host.text('session-key-123456')).toBe('session-key-123456');
	});
});
