/**
 * A chat-model node's own client library failing a call standalone: Google's Gemini SDK given a
 * host that answers something that is not a Gemini stream. The run fails with a ToolbridgeError
 * that names the node (`CHAT_MODEL_FAILED`), the API key is nowhere in it, and the SDK's second
 * copy of the error, rejected outside the call, is contained: a process warning
 * (`TOOLBRIDGE_LATE_NODE_ERROR`), where it once ended the caller's process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import { ToolbridgeError } from '../../../../src/errors/toolbridge-error';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

let server: Server;
let host: string;
const warnings: Array<{ code?: string; message: string }> = [];
const onWarning = (warning: Error & { code?: string }): void => {
	warnings.push({ code: warning.code, message: warning.message });
};

beforeAll(async () => {
	server = createServer((_, response) => {
		response.writeHead(200, { 'content-type': 'text/html' });
		response.end('<html>not a Gemini stream</html>');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	process.on('warning', onWarning);
});
afterAll(async () => {
	process.off('warning', onWarning);
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("a chat-model node's library failing the call", () => {
	it('is a ToolbridgeError naming the node; its stray copy is a warning', async () => {
		const apiKey = 'AIza-model-call-failure-secret';
		const error = await runWorkflowAgent(
			modelAgentWorkflow(
				modelNode(
					'Google Gemini Chat Model',
					'lmChatGoogleGemini',
					1.2,
					{ modelName: 'models/gemini-2.5-flash', options: {} },
					{ googlePalmApi: { id: 'g', name: 'Gemini account' } },
				),
			),
			{ prompt: 'Shout hello', credentials: { 'Gemini account': { apiKey, host } }, env: {} },
		).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(ToolbridgeError);
		expect((error as ToolbridgeError).code).toMatch(/^(CHAT_MODEL_FAILED|NODE_STRAY_ERROR)$/);
		expect((error as Error).message).toContain('"Google Gemini Chat Model"');
		expect((error as Error).message).not.toContain(apiKey);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const late = warnings.filter((warning) => warning.code === 'TOOLBRIDGE_LATE_NODE_ERROR');
		for (const warning of late) {
			expect(warning.message).toContain('"Google Gemini Chat Model"');
			expect(warning.message).not.toContain(apiKey);
		}
	}, 60_000);
});
