import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { withToolImages } from '../../src/agent/tool-images';
import type { ChatMessage } from '../../src/chat/types';
import { langChainMessagesFromWire } from '../../src/langchain/langchain-messages';

const png = 'iVBORw0KGgo=';
const turn: ChatMessage[] = [
	{
		role: 'assistant',
		content: null,
		tool_calls: [{ id: 'c1', type: 'function', function: { name: 'chart', arguments: '{}' } }],
	},
	{ role: 'tool', tool_call_id: 'c1', content: 'chart text' },
];
const kept = [
	{
		toolCallId: 'c1',
		images: [{ kind: 'image' as const, mimeType: 'image/png', data: png, name: 'a.png', bytes: 8 }],
	},
];
const imageUrl = { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } };

describe('tool images through a connected LangChain model (langchain-model-caller maps the request)', () => {
	it('OpenAI-style: the user message after the tool turn is a HumanMessage with the image part', () => {
		const messages = langChainMessagesFromWire(withToolImages(turn, kept, { model: 'gpt-4o' }));
		const human = messages.at(-1) as HumanMessage;
		expect(human).toBeInstanceOf(HumanMessage);
		expect(human.content).toContainEqual(imageUrl);
	});

	it('Anthropic-style: the ToolMessage carries the image part (LangChain Anthropic maps it into tool_result)', () => {
		const messages = langChainMessagesFromWire(
			withToolImages(turn, kept, { model: 'claude-sonnet-4' }),
		);
		const tool = messages.at(-1) as ToolMessage;
		expect(tool).toBeInstanceOf(ToolMessage);
		expect(tool.tool_call_id).toBe('c1');
		expect(tool.content).toEqual([
			{ type: 'text', text: 'chart text' },
			{ type: 'text', text: '[image: a.png]' },
			imageUrl,
		]);
	});
});
