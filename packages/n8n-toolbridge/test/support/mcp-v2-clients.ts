/**
 * The official MCP SDK v2 client (`@modelcontextprotocol/client`) against `toolbridge mcp`:
 * pinned to 2026-07-28 (`server/discover`, no handshake) or in 2025 mode (`initialize`).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolbridgeCommand } from './toolbridge-process';

/** `modern`: pinned to 2026-07-28; `legacy`: the 2025 handshake. */
export type ClientEra = 'modern' | 'legacy';

/** How the client answers an approval request (none: it does not declare elicitation). */
export type ApprovalAnswer = 'approve' | 'decline' | 'none';

function newClient(era: ClientEra, approval: ApprovalAnswer): Client {
	const client = new Client(
		{ name: `toolbridge-test-${era}`, version: '1.0.0' },
		{
			versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
			capabilities: approval === 'none' ? {} : { elicitation: { form: {} } },
		},
	);
	if (approval !== 'none') {
		const content: Record<string, string | boolean> =
			approval === 'approve' ? { approve: true } : { approve: false, reason: 'wrong release' };
		client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content }));
	}
	return client;
}

/** A v2 client connected to `toolbridge <args>` over stdio. */
export async function v2StdioClient(
	args: string[],
	era: ClientEra,
	options: { env?: Record<string, string>; approval?: ApprovalAnswer } = {},
): Promise<Client> {
	const spec = toolbridgeCommand(args);
	const client = newClient(era, options.approval ?? 'none');
	await client.connect(
		new StdioClientTransport({
			command: spec.command,
			args: spec.args,
			cwd: spec.cwd,
			env: { ...spec.env, ...options.env },
			stderr: 'pipe',
		}),
	);
	return client;
}

/** A v2 client connected to a `toolbridge mcp --http` endpoint. */
export async function v2HttpClient(
	url: string,
	era: ClientEra,
	options: { token?: string; approval?: ApprovalAnswer } = {},
): Promise<Client> {
	const client = newClient(era, options.approval ?? 'none');
	await client.connect(
		new StreamableHTTPClientTransport(new URL(url), {
			requestInit: options.token
				? { headers: { Authorization: `Bearer ${options.token}` } }
				: undefined,
		}),
	);
	return client;
}
