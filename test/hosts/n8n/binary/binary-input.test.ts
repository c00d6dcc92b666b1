import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { EngineResponse, INodeExecutionData, IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentOrchestrator } from '../../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import type { ChatRequest } from '../../../../src/chat/types';
import { Redactor } from '../../../../src/chat/redactor';
import type { AgentEngineRequest } from '../../../../src/hosts/n8n/engine/engine-item';
import type { StoredEngineItem } from '../../../../src/hosts/n8n/engine/stored-prompt-files';
import { runAgentEngine } from '../../../../src/hosts/n8n/engine/run-agent-engine';
import { runValidatorItems } from '../../../../src/hosts/n8n/drivers/run-validator-node-item';
import { textReply } from '../../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../../support/fake-chat-server-hooks';
import { inlineBinary, stubApiKey, stubExecuteContext } from '../stub-execute-context';

const png = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);
const pdf = Buffer.from('%PDF-1.4\n%%EOF');
const pngUrl = `data:image/png;base64,${png.toString('base64')}`;

const executeNode = async (context: IExecuteFunctions) =>
	(await new AgentOrchestrator().execute.call(context)) as INodeExecutionData[][];
const start = fakeChatServerPerTest();

const withFiles = [
	{
		json: { chatInput: 'What is on the photo?' },
		binary: {
			photo: inlineBinary(png, 'image/png', 'photo.png'),
			invoice: inlineBinary(pdf, 'application/pdf', 'invoice.pdf'),
		},
	},
];

describe('Binary Input, at the wire', () => {
	it('in-process: the image and the PDF reach the request body as content parts; memory keeps notes; the debug log shows no base64', async () => {
		const fake = await start(() => textReply('A red dot.'));
		const history = new InMemoryChatMessageHistory();
		const { context } = stubExecuteContext({
			baseUrl: fake.baseUrl,
			items: withFiles,
			memory: { chatHistory: history },
			options: {
				binaryInput: 'imagesAndDocuments',
				debugLog: true,
				systemMessage: 'Look closely.',
			},
		});
		const [output] = await executeNode(context);

		expect(output[0].json.output).toBe('A red dot.');
		expect(fake.requests[0].body.messages).toEqual([
			{ role: 'system', content: 'Look closely.' },
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'What is on the photo?' },
					{ type: 'text', text: '[image: photo.png]' },
					{ type: 'image_url', image_url: { url: pngUrl } },
					{
						type: 'file',
						file: {
							filename: 'invoice.pdf',
							file_data: `data:application/pdf;base64,${pdf.toString('base64')}`,
						},
					},
				],
			},
		]);
		const saved = await history.getMessages();
		expect(saved.map((message) => [message.getType(), message.content])).toEqual([
			['human', 'What is on the photo?\n[image: photo.png]\n[file: invoice.pdf]'],
			['ai', 'A red dot.'],
		]);
		const debugLog = output[0].json.debugLog as string[];
		expect(debugLog).toContain(
			'[DEBUG] Binary input: image "photo.png" from property "photo" (image/png, 70 B)',
		);
		expect(debugLog).toContain(
			'[DEBUG] Binary input: document "invoice.pdf" from property "invoice" (application/pdf, 14 B)',
		);
		expect(JSON.stringify(output)).not.toContain(png.toString('base64'));
	});

	it('the engine driver sends the same user message', async () => {
		const fake = await start(() => textReply('Seen.'));
		const { context } = stubExecuteContext({
			baseUrl: fake.baseUrl,
			items: withFiles,
			options: { binaryInput: 'images', debugLog: true },
		});
		const output = (await runAgentEngine(context, undefined, {
			failItem: (error) => {
				throw error;
			},
		})) as INodeExecutionData[][];

		expect(output[0][0].json.output).toBe('Seen.');
		expect(fake.requests[0].body.messages.at(-1)).toEqual({
			role: 'user',
			content: [
				{ type: 'text', text: 'What is on the photo?' },
				{ type: 'text', text: '[image: photo.png]' },
				{ type: 'image_url', image_url: { url: pngUrl } },
			],
		});
		expect(output[0][0].json.debugLog).toContain(
			'[DEBUG] Binary input: skipped "invoice.pdf" in property "invoice" (application/pdf): only PNG, JPEG, GIF and WebP images (PDFs with "Binary Input" set to "Images and Documents") are sent',
		);
	});

	it('the engine driver stores the prompt without its files in the request metadata and reads them again at the re-entry', async () => {
		const requests: ChatRequest[] = [];
		const tool = new DynamicStructuredTool({
			name: 'label',
			description: 'Labels a photo',
			schema: z.object({ label: z.string() }),
			func: async ({ label }) => label,
			metadata: { sourceNodeName: 'Label' },
		});
		const { context } = stubExecuteContext({
			items: withFiles,
			tools: [tool],
			options: { binaryInput: 'images' },
		});
		const callModel = async (request: ChatRequest) => {
			requests.push(request);
			return requests.length === 1
				? {
						text: '',
						reasoning: '',
						reasoningDetails: [],
						toolCalls: [
							{
								toolCallId: 'c1',
								name: 'label',
								argumentsText: '{"label":"dot"}',
								arguments: { label: 'dot' },
							},
						],
						finishReason: 'tool-calls' as const,
						rawFinishReason: 'tool_calls',
					}
				: {
						text: 'A dot.',
						reasoning: '',
						reasoningDetails: [],
						toolCalls: [],
						finishReason: 'stop' as const,
						rawFinishReason: 'stop',
					};
		};
		const failItem = (error: unknown): never => {
			throw error;
		};
		const request = (await runAgentEngine(context, undefined, {
			failItem,
			callModel,
		})) as AgentEngineRequest;
		expect(request.actions).toHaveLength(1);
		const stored = request.metadata.toolbridge.items[0] as StoredEngineItem;
		expect(stored).toMatchObject({ promptFiles: true });
		expect(stored.state.messages[stored.state.turnStart]).toEqual({
			role: 'user',
			content: 'What is on the photo?',
		});
		expect(JSON.stringify(request.metadata)).not.toContain(png.toString('base64'));

		const response: EngineResponse = {
			actionResponses: [
				{
					action: request.actions[0],
					data: {
						startTime: 0,
						executionTime: 1,
						executionIndex: 0,
						source: [],
						data: { ai_tool: [[{ json: { response: 'dot' } }]] },
					},
				},
			],
			metadata: JSON.parse(JSON.stringify(request.metadata)) as EngineResponse['metadata'],
		} as EngineResponse;
		const output = (await runAgentEngine(context, response, {
			failItem,
			callModel,
		})) as INodeExecutionData[][];
		expect(output[0][0].json.output).toBe('A dot.');
		expect(requests[1].messages.find((message) => message.role === 'user')).toEqual({
			role: 'user',
			content: [
				{ type: 'text', text: 'What is on the photo?' },
				{ type: 'text', text: '[image: photo.png]' },
				{ type: 'image_url', image_url: { url: pngUrl } },
			],
		});
	});

	it('validator mode sends the files with the prompt too', async () => {
		const requests: ChatRequest[] = [];
		const tool = new DynamicStructuredTool({
			name: 'label',
			description: 'Labels a photo',
			schema: z.object({ label: z.string() }),
			func: async ({ label }) => label,
			metadata: { sourceNodeName: 'Label' },
		});
		const { context } = stubExecuteContext({
			items: withFiles,
			tools: [tool],
			options: { binaryInput: 'images' },
			parameters: { mode: 'validator', validateOnly: true },
		});
		const output = await runValidatorItems(
			context,
			(error) => {
				throw error;
			},
			{
				callModel: async (request) => {
					requests.push(request);
					return {
						text: '',
						reasoning: '',
						reasoningDetails: [],
						toolCalls: [
							{
								toolCallId: 'c1',
								name: 'label',
								argumentsText: '{"label":"dot"}',
								arguments: { label: 'dot' },
							},
						],
						finishReason: 'tool-calls',
						rawFinishReason: 'tool_calls',
					};
				},
			},
		);
		expect(output[0].json).toMatchObject({ tool: 'label', arguments: { label: 'dot' } });
		expect(requests[0].messages.at(-1)).toMatchObject({
			role: 'user',
			content: [
				{ type: 'text' },
				{ type: 'text', text: '[image: photo.png]' },
				{ type: 'image_url', image_url: { url: pngUrl } },
			],
		});
	});

	it('a file over the limit fails its item with BINARY_TOO_LARGE, before any model call; continue on fail puts the error at its index', async () => {
		const fake = await start(() => textReply('ok'));
		const items = [
			{ json: { chatInput: 'a' } },
			{
				json: { chatInput: 'b' },
				binary: { data: { ...inlineBinary(png, 'image/png', 'big.png'), bytes: 2 * 1024 * 1024 } },
			},
		];
		const { context } = stubExecuteContext({
			baseUrl: fake.baseUrl,
			items,
			continueOnFail: true,
			options: { binaryInput: 'images', maxBinaryMb: 1 },
		});
		const [output] = await executeNode(context);
		expect(output[0].json.output).toBe('ok');
		expect(output[1].json).toMatchObject({ code: 'BINARY_TOO_LARGE' });
		expect(String(output[1].json.error)).toContain(
			'Binary property "data" ("big.png") is 2.0 MB, more than the 1.0 MB',
		);
		expect(fake.requests).toHaveLength(1);
	});
});

describe('Redactor on data URLs', () => {
	it('redacts a 5 MB data URL in one linear pass, leaving it as it was', () => {
		const big = `data:image/png;base64,${Buffer.alloc(5 * 1024 * 1024, 7).toString('base64')}`;
		const redactor = new Redactor([stubApiKey, 'x-header-secret']);
		const value = {
			messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: big } }] }],
		};
		// Unchanged values come back as the same objects: nothing copied.
		expect(redactor.value(value)).toBe(value);
		expect(redactor.text(`${big} ${stubApiKey}`)).toBe(`${big} [REDACTED]`);
	});
});
