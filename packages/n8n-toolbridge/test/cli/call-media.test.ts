/**
 * `toolbridge call --json` on a real node that downloads a PNG (n8n's HTTP Request tool against a
 * loopback server): the JSON names the file in `content` and carries it in `attachments`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolbridge } from '../support/toolbridge-process';

/** A 1×1 PNG. */
const png =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
let files: Server;
let base: string;

beforeAll(async () => {
	files = createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png, 'base64'));
	});
	await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => files.close(() => resolve())));

describe('toolbridge call --json of a node that returns a PNG', () => {
	it('prints the text line and the image as an attachment', async () => {
		const { status, stdout } = await runToolbridge([
			'call',
			'fixtures/workflows/media-tools.json',
			'Fetch_file',
			'--args',
			JSON.stringify({ url: `${base}/chart.png` }),
			'--json',
		]);
		expect(status).toBe(0);
		const printed = JSON.parse(stdout) as { content: string; attachments: unknown[] };
		expect(printed.content).toContain('image/png');
		expect(printed.attachments).toEqual([
			{ kind: 'image', mimeType: 'image/png', data: png, name: 'chart.png', bytes: 70 },
		]);
	}, 60_000);
});
