import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/types';
import {
	langChainMessagesFromWire,
	wireMessagesFromLangChain,
} from '../../src/langchain/langchain-messages';
import { withMediaNotes } from '../../src/langchain/media-notes';

const inline = 'data:image/png;base64,AAAA';

describe('withMediaNotes', () => {
	it.each<[string, ChatMessage['content'], ChatMessage['content']]>([
		[
			'an image after its note is dropped',
			[
				{ type: 'text', text: 'Look' },
				{ type: 'text', text: '[image: a.png]' },
				{ type: 'image_url', image_url: { url: inline } },
			],
			'Look\n[image: a.png]',
		],
		[
			'an image without a note gets one',
			[
				{ type: 'text', text: 'Look' },
				{ type: 'image_url', image_url: { url: inline } },
			],
			'Look\n[image]',
		],
		[
			'a file becomes its note',
			[
				{ type: 'text', text: 'Read' },
				{
					type: 'file',
					file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' },
				},
			],
			'Read\n[file: a.pdf]',
		],
		[
			'an image by https URL stays',
			[
				{ type: 'text', text: 'Look' },
				{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
			],
			[
				{ type: 'text', text: 'Look' },
				{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
			],
		],
		[
			'text parts alone stay as they are',
			[
				{ type: 'text', text: 'a' },
				{ type: 'text', text: 'b' },
			],
			[
				{ type: 'text', text: 'a' },
				{ type: 'text', text: 'b' },
			],
		],
	])('%s', (_name, content, expected) => {
		expect(withMediaNotes([{ role: 'user', content } as ChatMessage])).toEqual([
			{ role: 'user', content: expected },
		]);
	});

	it('leaves other messages and plain strings alone', () => {
		const messages: ChatMessage[] = [
			{ role: 'user', content: 'hi' },
			{ role: 'assistant', content: 'hello' },
		];
		const result = withMediaNotes(messages);
		expect(result[0]).toBe(messages[0]);
		expect(result[1]).toBe(messages[1]);
	});
});

describe('file parts and LangChain messages', () => {
	it('round-trips image and file parts of a user message', () => {
		const message: ChatMessage = {
			role: 'user',
			content: [
				{ type: 'text', text: 'Read' },
				{ type: 'image_url', image_url: { url: inline } },
				{
					type: 'file',
					file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' },
				},
			],
		};
		expect(wireMessagesFromLangChain(langChainMessagesFromWire([message]))).toEqual([message]);
	});

	it("reads LangChain's standard data blocks (n8n's own agent sends PDFs that way)", () => {
		const human = new HumanMessage({
			content: [
				{ type: 'text', text: 'Read' },
				{
					type: 'file',
					source_type: 'base64',
					mime_type: 'application/pdf',
					data: 'AAAA',
					metadata: { filename: 'a.pdf' },
				},
				{ type: 'image', source_type: 'base64', mime_type: 'image/png', data: 'BBBB' },
				{ type: 'image', source_type: 'url', url: 'https://example.com/b.png' },
			],
		});
		expect(wireMessagesFromLangChain([human])).toEqual([
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'Read' },
					{
						type: 'file',
						file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' },
					},
					{ type: 'image_url', image_url: { url: 'data:image/png;base64,BBBB' } },
					{ type: 'image_url', image_url: { url: 'https://example.com/b.png' } },
				],
			},
		]);
	});
});
