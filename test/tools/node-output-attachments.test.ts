import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { OutputBoundary } from '../../src/agent/output-boundary';
import {
	withNodeOutputAttachments,
	nodeOutputObservation,
} from '../../src/tools/format-tool-output';
import { nodeOutputAttachments } from '../../src/tools/node-output-attachments';

/** A 1×1 PNG. */
const png =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const pngBytes = Buffer.from(png, 'base64').length;
const wav = Buffer.from('RIFF----WAVEfmt ').toString('base64');

const file = (data: string, mimeType: string, fileName?: string, id?: string) => ({
	data,
	mimeType,
	...(fileName ? { fileName } : {}),
	...(id ? { id, bytes: Buffer.from(data, 'base64').length } : {}),
});

describe('nodeOutputAttachments', () => {
	it('takes images and sounds in item and property order, normalising their types; other files stay in the text', async () => {
		const items: INodeExecutionData[] = [
			{ json: {}, binary: { chart: file(png, 'image/PNG; charset=binary', 'chart.png') } },
			{
				json: { n: 1 },
				binary: {
					doc: file('JVBERi0=', 'application/pdf', 'a.pdf'),
					voice: file(wav, 'audio/x-wav'),
					photo: file(png, 'image/jpg', 'p.jpg'),
				},
			},
		];
		const { attachments, notes } = await nodeOutputAttachments(items);
		expect(notes).toEqual([]);
		expect(attachments).toEqual([
			{ kind: 'image', mimeType: 'image/png', data: png, name: 'chart.png', bytes: pngBytes },
			{ kind: 'audio', mimeType: 'audio/wav', data: wav, name: 'voice', bytes: 16 },
			{ kind: 'image', mimeType: 'image/jpeg', data: png, name: 'p.jpg', bytes: pngBytes },
		]);
	});

	it('bounds count and size, with a note per file left out; a stored file over the size is never read', async () => {
		const read: string[] = [];
		const items: INodeExecutionData[] = [
			{
				json: {},
				binary: {
					a: file(png, 'image/png', 'a.png'),
					big: file('A'.repeat(400), 'image/png', 'big.png'),
					storedBig: file('A'.repeat(400), 'image/png', 'stored-big.png', 'filesystem-v2:big'),
					b: file(png, 'image/png', 'b.png', 'filesystem-v2:b'),
					c: file(png, 'image/png', 'c.png'),
				},
			},
		];
		const { attachments, notes } = await nodeOutputAttachments(items, {
			maxAttachments: 2,
			maxAttachmentBytes: 100,
			readStored: async (id) => {
				read.push(id);
				return Buffer.from(png, 'base64');
			},
		});
		expect(attachments.map((attachment) => attachment.name)).toEqual(['a.png', 'b.png']);
		expect(read).toEqual(['filesystem-v2:b']);
		expect(notes).toEqual([
			'[image "big.png" (300 B) not attached: over the 100 B limit per file]',
			'[image "stored-big.png" (300 B) not attached: over the 100 B limit per file]',
			'[image "c.png" (70 B) not attached: only 2 files are attached per tool result]',
		]);
	});

	it('a stored file without a reader, or one whose read fails, becomes a note', async () => {
		const items: INodeExecutionData[] = [
			{ json: {}, binary: { a: file(png, 'image/png', 'a.png', 'filesystem-v2:a') } },
		];
		expect((await nodeOutputAttachments(items)).notes).toEqual([
			'[image "a.png" not attached: n8n stores it outside the item, where this host cannot read it]',
		]);
		const failing = await nodeOutputAttachments(items, {
			readStored: async () => Promise.reject(new Error('gone')),
		});
		expect(failing).toEqual({
			attachments: [],
			notes: ['[image "a.png" not attached: reading it failed (gone)]'],
		});
	});

	it('the observation keeps its text, gains the attachments and the notes; the boundary bounds and redacts them', async () => {
		const items: INodeExecutionData[] = [
			{
				json: {},
				binary: {
					a: file(png, 'image/png', 'secret-a.png'),
					b: file(png, 'image/png', 'b.png'),
				},
			},
		];
		const observation = await withNodeOutputAttachments(nodeOutputObservation(items), items);
		expect(observation.content).toBe(nodeOutputObservation(items).content);
		expect(observation.attachments).toHaveLength(2);
		const guarded = new OutputBoundary({ secrets: ['secret'], maxAttachments: 1 }).observation(
			observation,
		);
		expect(guarded.attachments).toEqual([
			{
				kind: 'image',
				mimeType: 'image/png',
				data: png,
				name: '[REDACTED]-a.png',
				bytes: pngBytes,
			},
		]);
		expect(guarded.content).toMatch(
			/\n\[image "b\.png" \(70 B\) not attached: only 1 file is attached per tool result\]$/,
		);
		const noBinary = [{ json: { a: 1 } }];
		expect(await withNodeOutputAttachments(nodeOutputObservation(noBinary), noBinary)).toEqual(
			nodeOutputObservation(noBinary),
		);
	});
});
