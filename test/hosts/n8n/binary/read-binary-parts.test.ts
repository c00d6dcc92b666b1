import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import type { IBinaryData } from 'n8n-workflow';
import { afterAll, describe, expect, it } from 'vitest';
import { BinaryInputError } from '../../../../src/errors/binary-input-error';
import { describeAgentError } from '../../../../src/hosts/n8n/output/describe-agent-error';
import { readBinaryPrompt } from '../../../../src/hosts/n8n/binary/read-binary-parts';
import { inlineBinary, stubExecuteContext } from '../stub-execute-context';

/** A real 1×1 PNG. */
const png = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
const csv = Buffer.from('a,b\n1,2\n');

const item = (binary: Record<string, IBinaryData>) => [
	{ json: { chatInput: 'Describe the files' }, binary },
];

describe('readBinaryPrompt', () => {
	it('leaves the prompt alone, reading nothing, when Binary Input is off (the default)', async () => {
		const { context, bufferReads } = stubExecuteContext({
			items: item({ data: inlineBinary(png, 'image/png', 'a.png') }),
		});
		expect(await readBinaryPrompt(context, 0, 'Describe the files')).toEqual({
			prompt: 'Describe the files',
			notes: [],
		});
		expect(bufferReads).toEqual([]);
	});

	it('sends every image after its note, skips other types with a note, and never logs the bytes', async () => {
		const { context } = stubExecuteContext({
			options: { binaryInput: 'images' },
			items: item({
				photo: inlineBinary(png, 'image/png', 'photo.png'),
				table: inlineBinary(csv, 'text/csv', 'table.csv'),
				scan: inlineBinary(pdf, 'application/pdf', 'scan.pdf'),
			}),
		});
		const { prompt, notes } = await readBinaryPrompt(context, 0, 'Describe the files');
		expect(prompt).toEqual([
			{ type: 'text', text: 'Describe the files' },
			{ type: 'text', text: '[image: photo.png]' },
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
		]);
		expect(notes).toEqual([
			'[DEBUG] Binary input: image "photo.png" from property "photo" (image/png, 70 B)',
			'[DEBUG] Binary input: skipped "table.csv" in property "table" (text/csv): only PNG, JPEG, GIF and WebP images (PDFs with "Binary Input" set to "Images and Documents") are sent',
			'[DEBUG] Binary input: skipped "scan.pdf" in property "scan" (application/pdf): only PNG, JPEG, GIF and WebP images (PDFs with "Binary Input" set to "Images and Documents") are sent',
		]);
		expect(notes.join('\n')).not.toContain(png.toString('base64').slice(0, 20));
	});

	it('sends PDFs as file parts with "Images and Documents", named after the file', async () => {
		const { context } = stubExecuteContext({
			options: { binaryInput: 'imagesAndDocuments' },
			items: item({
				scan: inlineBinary(pdf, 'application/pdf', 'scan.pdf'),
				photo: inlineBinary(png, 'image/JPG'),
			}),
		});
		const { prompt } = await readBinaryPrompt(context, 0, 'Describe the files');
		expect(prompt).toEqual([
			{ type: 'text', text: 'Describe the files' },
			{
				type: 'file',
				file: {
					filename: 'scan.pdf',
					file_data: `data:application/pdf;base64,${pdf.toString('base64')}`,
				},
			},
			// No file name: the property's; the non-standard image/jpg is sent as image/jpeg.
			{ type: 'text', text: '[image: photo]' },
			{ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${png.toString('base64')}` } },
		]);
	});

	it('sends only the named properties, in the order named', async () => {
		const { context, bufferReads } = stubExecuteContext({
			options: { binaryInput: 'images', binaryPropertyNames: ' second , first,' },
			items: item({
				first: inlineBinary(png, 'image/png', '1.png'),
				second: inlineBinary(png, 'image/gif', '2.gif'),
				third: inlineBinary(png, 'image/webp', '3.webp'),
			}),
		});
		const { prompt } = await readBinaryPrompt(context, 0, 'p');
		expect(
			(prompt as Array<{ type: string; text?: string }>)
				.filter((part) => part.type === 'text')
				.map((part) => part.text),
		).toEqual(['p', '[image: 2.gif]', '[image: 1.png]']);
		expect(bufferReads).toEqual(['0:second', '0:first']);
	});

	it('refuses a named property of a type the model cannot take, and a named property that is missing', async () => {
		const named = (binaryPropertyNames: string, binaryInput = 'images') =>
			stubExecuteContext({
				options: { binaryInput, binaryPropertyNames },
				items: item({
					table: inlineBinary(csv, 'text/csv', 'table.csv'),
					scan: inlineBinary(pdf, 'application/pdf', 'scan.pdf'),
				}),
			}).context;
		await expect(readBinaryPrompt(named('table'), 0, 'p')).rejects.toMatchObject({
			code: 'BINARY_UNSUPPORTED_TYPE',
			property: 'table',
			message:
				'Binary property "table" holds "table.csv" of type text/csv; the model can be sent PNG, JPEG, GIF and WebP images (PDFs with "Binary Input" set to "Images and Documents").',
		});
		await expect(readBinaryPrompt(named('scan'), 0, 'p')).rejects.toMatchObject({
			code: 'BINARY_UNSUPPORTED_TYPE',
			property: 'scan',
		});
		await expect(
			readBinaryPrompt(named('scan', 'imagesAndDocuments'), 0, 'p'),
		).resolves.toMatchObject({ prompt: [{ type: 'text' }, { type: 'file' }] });
		const missing = readBinaryPrompt(named('data'), 0, 'p');
		await expect(missing).rejects.toBeInstanceOf(BinaryInputError);
		await expect(missing).rejects.toMatchObject({
			code: 'BINARY_PROPERTY_MISSING',
			message: 'The item has no binary property "data" (it has: table, scan).',
		});
	});

	it('fails a file over "Max Binary Size (MB)", naming the property, its size and the limit, before reading it when n8n knows the size', async () => {
		const big = { ...inlineBinary(png, 'image/png', 'huge.png'), bytes: 25 * 1024 * 1024 };
		const { context, bufferReads } = stubExecuteContext({
			options: { binaryInput: 'images' },
			items: item({ data: big }),
		});
		const error = await readBinaryPrompt(context, 0, 'p').catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(BinaryInputError);
		expect(error).toMatchObject({
			code: 'BINARY_TOO_LARGE',
			property: 'data',
			bytes: 25 * 1024 * 1024,
			limitBytes: 20 * 1024 * 1024,
			message:
				'Binary property "data" ("huge.png") is 25.0 MB, more than the 20.0 MB "Max Binary Size (MB)" allows per file.',
		});
		expect(bufferReads).toEqual([]);
		expect(describeAgentError(error)).toContain('Max Binary Size (MB)');
	});

	it('checks the bytes read as well when the binary entry does not say its size', async () => {
		const { bytes: _bytes, ...withoutSize } = inlineBinary(
			Buffer.alloc(3 * 1024 * 1024),
			'image/png',
			'big.png',
		) as IBinaryData;
		const { context } = stubExecuteContext({
			options: { binaryInput: 'images', maxBinaryMb: 2 },
			items: item({ data: withoutSize as IBinaryData }),
		});
		await expect(readBinaryPrompt(context, 0, 'p')).rejects.toMatchObject({
			code: 'BINARY_TOO_LARGE',
			bytes: 3 * 1024 * 1024,
			limitBytes: 2 * 1024 * 1024,
		});
		const unlimited = stubExecuteContext({
			options: { binaryInput: 'images', maxBinaryMb: 0 },
			items: item({ data: withoutSize as IBinaryData }),
		}).context;
		await expect(readBinaryPrompt(unlimited, 0, 'p')).resolves.toMatchObject({
			prompt: [{ type: 'text' }, { type: 'text' }, { type: 'image_url' }],
		});
	});

	it('sends no empty text part when the prompt is blank (providers refuse one)', async () => {
		const { context } = stubExecuteContext({
			options: { binaryInput: 'images' },
			items: item({ data: inlineBinary(png, 'image/png', 'a.png') }),
		});
		expect((await readBinaryPrompt(context, 0, '  ')).prompt).toEqual([
			{ type: 'text', text: '[image: a.png]' },
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
		]);
	});

	it('sends the prompt alone, with a note, when the item has no binary data', async () => {
		const { context } = stubExecuteContext({ options: { binaryInput: 'images' } });
		expect(await readBinaryPrompt(context, 0, 'hello')).toEqual({
			prompt: 'hello',
			notes: ['[DEBUG] Binary input: the item has no binary data; the prompt goes alone'],
		});
	});

	describe('with n8n-core keeping binary data on disk (filesystem mode)', () => {
		let directory: string | undefined;
		afterAll(async () => {
			if (directory) await rm(directory, { recursive: true, force: true });
		});

		it('reads the file through getBinaryDataBuffer', async () => {
			directory = await mkdtemp(join(tmpdir(), 'toolbridge-binary-'));
			const config = Container.get(BinaryDataConfig);
			Object.assign(config, { mode: 'filesystem', localStoragePath: directory });
			const service = Container.get(BinaryDataService);
			await service.init();
			const stored = await service.store(
				{ type: 'execution', workflowId: 'w1', executionId: '1' },
				png,
				{ mimeType: 'image/png', fileName: 'disk.png', data: '' },
			);
			expect(stored.id).toMatch(/^filesystem/);
			expect(stored.data).not.toContain(png.toString('base64'));

			const { context } = stubExecuteContext({
				options: { binaryInput: 'images' },
				items: item({ data: stored }),
			});
			const { prompt } = await readBinaryPrompt(context, 0, 'p');
			expect(prompt).toEqual([
				{ type: 'text', text: 'p' },
				{ type: 'text', text: '[image: disk.png]' },
				{
					type: 'image_url',
					image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
				},
			]);
		});
	});
});
