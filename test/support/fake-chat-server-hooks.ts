/**
 * Vitest lifecycles for the loopback fake chat server (test/support/fake-chat-server.ts, which
 * stays free of vitest so plain scripts can use it): one server for a whole test file, or
 * servers started per test and closed after each.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
	startFakeChatServer,
	type FakeChatServer,
	type FakeChatServerOptions,
} from './fake-chat-server';

/**
 * Starts one fake for the calling test file (`beforeAll`) and closes it after the file
 * (`afterAll`). The returned handle reads through to the running server, so tests use
 * `server.baseUrl` and `server.requests` as with the server itself.
 * @throws (from the handle's members) when read before `beforeAll` has started the server
 */
export function fakeChatServerForFile(options: FakeChatServerOptions): FakeChatServer {
	let server: FakeChatServer | undefined;
	beforeAll(async () => {
		server = await startFakeChatServer(options);
	});
	afterAll(async () => {
		await server?.close();
	});
	const running = (): FakeChatServer => {
		if (!server)
			throw new Error(
				'the fake chat server is started in beforeAll; read it inside a test or hook',
			);
		return server;
	};
	return {
		get baseUrl() {
			return running().baseUrl;
		},
		get requests() {
			return running().requests;
		},
		close: () => running().close(),
		closeIdleConnections: () => running().closeIdleConnections(),
	};
}

/**
 * Registers an `afterEach` that closes the server the current test started, and returns the
 * function a test starts it with (`respond` answers each request, as in startFakeChatServer).
 * @throws (from the returned function) when the port cannot be bound
 */
export function fakeChatServerPerTest(): (
	respond: FakeChatServerOptions['respond'],
) => Promise<FakeChatServer> {
	let server: FakeChatServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});
	return async (respond) => {
		server = await startFakeChatServer({ respond });
		return server;
	};
}
