/**
 * A real node's image or sound over MCP: `toolbridge mcp` on a workflow whose HTTP Request tool
 * downloads a file from a loopback server; the official SDK client (over stdio) receives it as
 * `image` / `audio` content beside the text.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2StdioClient } from '../support/mcp-v2-clients';

/** A 1×1 PNG. */
const png =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** A WAV header with no samples. */
const wav = Buffer.from('UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=', 'base64');

let files: Server;
let base: string;
let client: Client;

beforeAll(async () => {
	files = createServer((request, response) => {
		if (request.url === '/chart.png')
			response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png, 'base64'));
		else if (request.url === '/hello.wav')
			response.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
		else if (request.url === '/big.png')
			response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(6 * 1024 * 1024));
		else response.writeHead(404).end();
	});
	await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
	client = await v2StdioClient(
		['mcp', 'fixtures/workflows/media-tools.json', '--allow-private-network'],
		'modern',
	);
}, 120_000);

afterAll(async () => {
	await client?.close();
	await new Promise<void>((resolve) => files.close(() => resolve()));
});

type Content = { type: string; text?: string; data?: string; mimeType?: string };
const fetchFile = async (path: string) =>
	(await client.callTool({ name: 'Fetch_file', arguments: { url: `${base}${path}` } })) as {
		content: Content[];
		isError?: boolean;
	};

describe('tools/call of a node that returns a file', () => {
	it('a PNG is image content after the text', async () => {
		const result = await fetchFile('/chart.png');
		expect(result.isError).toBeFalsy();
		expect(result.content).toHaveLength(2);
		expect(result.content[0]).toMatchObject({
			type: 'text',
			text: expect.stringContaining('image/png'),
		});
		expect(result.content[1]).toEqual({ type: 'image', data: png, mimeType: 'image/png' });
	}, 60_000);

	it('a WAV is audio content', async () => {
		const result = await fetchFile('/hello.wav');
		expect(result.content[1]).toEqual({
			type: 'audio',
			data: wav.toString('base64'),
			mimeType: 'audio/wav',
		});
	}, 60_000);

	it('a file over the size limit is left out, and the text says so', async () => {
		const result = await fetchFile('/big.png');
		expect(result.content).toHaveLength(1);
		expect(result.content[0].text).toMatch(
			/\[image "big\.png" \(6\.0 MB\) not attached: over the 5\.0 MB limit per file\]$/,
		);
	}, 60_000);
});
