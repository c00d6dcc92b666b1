import { describe, expect, it } from 'vitest';
import type { EngineItem } from '../../../../src/hosts/n8n/engine/engine-item';
import { withoutToolImages } from '../../../../src/hosts/n8n/engine/stored-prompt-files';

const image = {
	kind: 'image' as const,
	mimeType: 'image/png',
	data: 'AAAA',
	name: 'a.png',
	bytes: 3,
};

describe('withoutToolImages: the EngineRequest metadata never stores tool images', () => {
	it("drops the state's images and the attachments of results still waiting; keeps everything else", () => {
		const item = {
			itemIndex: 0,
			state: { status: 'awaiting-tools', toolImages: [{ toolCallId: 'c1', images: [image] }] },
			routes: {},
			results: [
				{
					toolCallId: 'c2',
					observation: { content: 'text', isError: false, attachments: [image] },
					durationMs: 1,
				},
			],
			actionIds: {},
			approved: [],
			debugLog: [],
		} as unknown as EngineItem;
		const [stored] = withoutToolImages([item]);
		expect(stored.state).toEqual({ status: 'awaiting-tools' });
		expect(stored.results).toEqual([
			{ toolCallId: 'c2', observation: { content: 'text', isError: false }, durationMs: 1 },
		]);
		expect(JSON.stringify(stored)).not.toContain('AAAA');
		expect(item.state.toolImages).toHaveLength(1);
		const plain = { ...item, state: { status: 'ready' }, results: [] } as unknown as EngineItem;
		expect(withoutToolImages([plain])[0]).toBe(plain);
	});
});
