// @ts-check
/**
 * Images from tools reach a vision model, in the real n8n 2.41.1: our AgentOrchestrator (engine
 * driver, OpenRouter credential → fake, a vision model id) + n8n's HTTP Request tool node, which
 * downloads a PNG from a loopback server. n8n runs the tool node (its run, with the PNG as binary
 * data, in the execution data, kept by n8n's binary data service); the scripted model checks that
 * its second request carries the PNG's exact bytes as an `image_url` data URL after the tool turn.
 */
import { createServer } from 'node:http';
import { matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import {
	agentOrchestratorNode,
	connections,
	node,
	nodeOutput,
	runDataOf,
	workflow,
} from '../lib/workflows.mjs';

/** A 2×2 PNG (4 coloured pixels). */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
	'base64',
);

/**
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
async function startPngServer() {
	const server = createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'image/png' });
		response.end(PNG);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${address.port}/chart.png`,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

/**
 * @param {'engine' | 'inProcess'} toolExecution
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function toolImages(toolExecution) {
	return async (scope) => {
		const files = await startPngServer();
		try {
			/** @type {string[]} */
			const seen = [];
			const fake = await scope.startFake((request, fakeModule) => {
				const body = request.body;
				if (toolMessages(body).length === 0)
					return matchStreaming(
						request,
						fakeModule.toolCallReply([
							{ id: 'call_png', name: 'Fetch_chart', arguments: { url: files.url } },
						]),
					);
				const images = (body.messages ?? []).flatMap((/** @type {any} */ message) =>
					Array.isArray(message.content)
						? message.content
								.filter((/** @type {any} */ part) => part?.type === 'image_url')
								.map((/** @type {any} */ part) => ({
									role: message.role,
									url: part.image_url?.url,
								}))
						: [],
				);
				seen.push(...images.map((/** @type {any} */ image) => image.role));
				const match = /^data:image\/png;base64,(.*)$/s.exec(String(images[0]?.url));
				if (images.length !== 1 || images[0].role !== 'user' || !match)
					throw new Error(
						`expected one image_url data URL in a user message after the tool turn: ${JSON.stringify(body.messages).slice(0, 800)}`,
					);
				if (!Buffer.from(match[1], 'base64').equals(PNG))
					throw new Error(`the image's bytes differ from the PNG the server sent`);
				return matchStreaming(request, fakeModule.textReply('A 2×2 chart with four colours.'));
			});
			const result = await scope.importAndExecute({
				fake,
				build: (credential) =>
					workflow({
						id: `wf-${scope.id}`.slice(0, 21),
						name: `E2E ${scope.id}`,
						nodes: [
							node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
							agentOrchestratorNode(credential, {
								mode: 'full',
								model: 'openai/gpt-4o',
								prompt: 'Fetch the chart and describe it.',
								options: { toolExecution },
							}),
							node('Fetch chart', 'n8n-nodes-base.httpRequestTool', 4.2, {
								toolDescription: 'Downloads a chart image from a URL',
								url: "={{ $fromAI('url', 'The URL of the chart', 'string') }}",
								options: {},
							}),
						],
						connections: connections([
							['Start', 'Agent Orchestrator'],
							['Fetch chart', 'Agent Orchestrator', 'ai_tool'],
						]),
					}),
			});
			fake.assertNoFailures();
			if (fake.requests.length !== 2)
				throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
			const [output] = nodeOutput(result, 'Agent Orchestrator');
			const answer = JSON.stringify(output?.output ?? output);
			if (!answer.includes('four colours')) throw new Error(`unexpected answer: ${answer}`);
			const runs = runDataOf(result)['Fetch chart'] ?? [];
			if (runs.length < 1) throw new Error(`no run of 'Fetch chart' in n8n's execution data`);
			// Where n8n kept the PNG: an id (`filesystem-v2:…`, n8n 2.x's default) is read back through
			// n8n's binary data service; without one the base64 was in the item.
			const binary = Object.values(runs[0]?.data ?? {})[0]?.[0]?.[0]?.binary?.data;
			const kept = binary?.id ? String(binary.id).split(':')[0] : 'inline base64';
			scope.note(
				`the PNG (${PNG.length} B) from n8n's HTTP Request tool run (binary kept as ${kept}) reached the model as an image_url part (${toolExecution})`,
			);
		} finally {
			await files.close();
		}
	};
}
