import { describe, expect, it } from 'vitest';
import type { ContentPart } from '../../../../src/chat/types';
import type { EngineItem } from '../../../../src/hosts/n8n/engine/engine-item';
import {
	restorePromptFiles,
	withoutPromptFiles,
} from '../../../../src/hosts/n8n/engine/stored-prompt-files';
import { createAgentState } from '../../../../src/agent/create-agent-state';
import { inlineBinary, stubExecuteContext } from '../stub-execute-context';

const png = Buffer.from('not really a png');
const url = `data:image/png;base64,${png.toString('base64')}`;

function engineItem(prompt: string | ContentPart[]): EngineItem {
	const state = createAgentState({
		config: { model: 'test/model', systemMessage: 'Be brief.' },
		prompt,
		history: [
			{ role: 'user', content: 'before' },
			{ role: 'assistant', content: 'ok' },
		],
		tools: [],
	});
	return {
		itemIndex: 0,
		state,
		routes: {},
		results: [],
		actionIds: {},
		approved: [],
		debugLog: [],
	};
}

describe('withoutPromptFiles and restorePromptFiles', () => {
	it.each<[string, string, ContentPart[]]>([
		[
			'a prompt with text',
			'Look',
			[
				{ type: 'text', text: 'Look' },
				{ type: 'text', text: '[image: a.png]' },
				{ type: 'image_url', image_url: { url } },
			],
		],
		[
			'a blank prompt',
			'',
			[
				{ type: 'text', text: '[image: a.png]' },
				{ type: 'image_url', image_url: { url } },
			],
		],
	])(
		'%s: stores the text only, and the re-entry reads the files again',
		async (_name, text, content) => {
			const item = engineItem(content);
			const [stored] = withoutPromptFiles([item]);
			expect(stored.state.messages[stored.state.turnStart]).toEqual({
				role: 'user',
				content: text,
			});
			// The messages before the prompt (system, history) are the same objects.
			stored.state.messages
				.slice(0, stored.state.turnStart)
				.forEach((message, index) => expect(message).toBe(item.state.messages[index]));
			// The live item is not changed.
			expect(item.state.messages[item.state.turnStart].content).toBe(content);

			const resumed = JSON.parse(JSON.stringify(stored)) as typeof stored;
			const { context } = stubExecuteContext({
				options: { binaryInput: 'images' },
				items: [{ json: {}, binary: { data: inlineBinary(png, 'image/png', 'a.png') } }],
			});
			await restorePromptFiles(context, resumed);
			expect(resumed).not.toHaveProperty('promptFiles');
			expect(resumed.state.messages).toEqual(item.state.messages);
		},
	);

	it('leaves items whose prompt is text alone', () => {
		const item = engineItem('Just text');
		expect(withoutPromptFiles([item])[0]).toBe(item);
	});
});
