import { describe, expect, it } from 'vitest';
import { connectionErrorFrom } from '../../../src/chat/http/connection-error-from';
import { ChatConnectionError } from '../../../src/errors/chat-connection-error';

const url = 'https://example.test/v1/chat/completions';

function withCode(message: string, code: string, cause?: unknown): Error {
	return Object.assign(new Error(message, { cause }), { code });
}

describe('connectionErrorFrom: fetch failures → ChatConnectionError', () => {
	it.each([
		[
			'undici: fetch failed, code on the cause',
			new TypeError('fetch failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
			'ECONNRESET',
		],
		[
			'a code two causes down',
			new Error('x', { cause: new Error('y', { cause: withCode('z', 'UND_ERR_SOCKET') }) }),
			'UND_ERR_SOCKET',
		],
		[
			'an abort code is looked through',
			withCode('aborted', 'ABORT_ERR', withCode('reset', 'EPIPE')),
			'EPIPE',
		],
		['no code, but the message says so', new TypeError('terminated'), undefined],
	])('%s', (_case, error, systemCode) => {
		const mapped = connectionErrorFrom(error, url);
		expect(mapped).toBeInstanceOf(ChatConnectionError);
		expect(mapped).toMatchObject({ code: 'CHAT_CONNECTION', systemCode, cause: error });
	});

	it.each([
		['an ordinary error', new Error('boom')],
		['not an Error', 'fetch failed'],
		['an abort without a cause', withCode('This operation was aborted', 'ABORT_ERR')],
	])('%s is not a connection failure', (_case, error) => {
		expect(connectionErrorFrom(error, url)).toBeUndefined();
	});
});
