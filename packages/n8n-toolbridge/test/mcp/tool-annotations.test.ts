import { createRequire } from 'node:module';
import type { INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { annotationsFromNotes, toolAnnotations } from '../../src/mcp/tool-annotations';

const require = createRequire(__filename);
/** A real node description from n8n-nodes-base (the class's, or its latest version's). */
function description(path: string, className: string): INodeTypeDescription {
	const NodeClass = require(`n8n-nodes-base/dist/nodes/${path}`)[className];
	const node = new NodeClass();
	return node.nodeVersions ? node.nodeVersions[node.currentVersion].description : node.description;
}

const slack = description('Slack/Slack.node.js', 'Slack');
const sheets = description('Google/Sheet/GoogleSheets.node.js', 'GoogleSheets');

describe('toolAnnotations: from what the node says about the chosen operation', () => {
	it.each([
		[
			'Slack: get a channel',
			{ resource: 'channel', operation: 'get' },
			{ readOnlyHint: true, destructiveHint: false, idempotentHint: true },
		],
		[
			'Slack: list messages (getAll)',
			{ resource: 'message', operation: 'getAll' },
			{ readOnlyHint: true, destructiveHint: false, idempotentHint: true },
		],
		[
			'Slack: search messages',
			{ resource: 'message', operation: 'search' },
			{ readOnlyHint: true, destructiveHint: false, idempotentHint: true },
		],
		[
			'Slack: delete a message',
			{ resource: 'message', operation: 'delete' },
			{ readOnlyHint: false, destructiveHint: true, idempotentHint: true },
		],
		[
			'Slack: send a message (the default resource and operation)',
			{},
			{ readOnlyHint: false, destructiveHint: false, idempotentHint: false },
		],
		[
			'Slack: update a message',
			{ resource: 'message', operation: 'update' },
			{ readOnlyHint: false, destructiveHint: true, idempotentHint: true },
		],
	])('%s', (_, parameters, hints) => {
		expect(toolAnnotations({ type: 'n8n-nodes-base.slackTool', parameters }, slack)).toEqual({
			openWorldHint: true,
			...hints,
		});
	});

	it('Google Sheets append (not idempotent) and clear (destroys)', () => {
		expect(
			toolAnnotations(
				{ type: 'n8n-nodes-base.googleSheetsTool', parameters: { operation: 'append' } },
				sheets,
			),
		).toMatchObject({ idempotentHint: false, destructiveHint: false });
		expect(
			toolAnnotations(
				{ type: 'n8n-nodes-base.googleSheetsTool', parameters: { operation: 'clear' } },
				sheets,
			),
		).toMatchObject({ destructiveHint: true });
	});

	it('HTTP Request: the method is the operation; a method the model chooses says nothing', () => {
		const http = (method?: string) =>
			toolAnnotations(
				{ type: 'n8n-nodes-base.httpRequestTool', parameters: method ? { method } : {} },
				undefined,
			);
		expect(http()).toMatchObject({ readOnlyHint: true });
		expect(http('DELETE')).toMatchObject({ destructiveHint: true });
		expect(http('POST')).toMatchObject({ readOnlyHint: false, idempotentHint: false });
		expect(http("={{ $fromAI('method') }}")).toEqual({ openWorldHint: true });
	});

	it('nodes that only compute are read-only and closed-world', () => {
		expect(
			toolAnnotations({ type: 'n8n-nodes-base.cryptoTool', parameters: {} }, undefined),
		).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
	});

	it('the node’s Notes override any hint', () => {
		const notes =
			'Sends to a sandbox channel.\nmcp: destructiveHint=false openWorldHint=false idempotentHint=TRUE nonsense=true';
		expect(annotationsFromNotes(notes)).toEqual({
			destructiveHint: false,
			openWorldHint: false,
			idempotentHint: true,
		});
		expect(
			toolAnnotations(
				{
					type: 'n8n-nodes-base.slackTool',
					parameters: { resource: 'message', operation: 'delete' },
					notes,
				},
				slack,
			),
		).toEqual({
			readOnlyHint: false,
			destructiveHint: false,
			idempotentHint: true,
			openWorldHint: false,
		});
	});
});
