/**
 * What n8n shows users: both nodes' descriptions (parameter names, types, defaults, display
 * names, descriptions, order) must not change when the code behind them is reorganized. The
 * files under `descriptions/` were written from the nodes as they were before the options
 * became one table (src/agent/model-options.ts); a change here is a change users see, so it
 * must be deliberate (update the file with `npx vitest run -u test/nodes/node-descriptions.test.ts`
 * and say why in the commit).
 */
import { describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { ToolbridgeChatModel } from '../../nodes/ToolbridgeChatModel/ToolbridgeChatModel.node';

/** JSON with every object's keys sorted: key order means nothing to n8n, array order (the options' order) does. */
function sortedJson(value: unknown): string {
	return JSON.stringify(
		value,
		(_key, entry: unknown) =>
			typeof entry === 'object' && entry !== null && !Array.isArray(entry)
				? Object.fromEntries(
						Object.entries(entry).sort(([left], [right]) => left.localeCompare(right)),
					)
				: entry,
		'\t',
	);
}

describe('node descriptions as n8n shows them', () => {
	it.each([
		['agent-orchestrator', () => new AgentOrchestrator().description],
		['toolbridge-chat-model', () => new ToolbridgeChatModel().description],
	])('%s is unchanged', async (name, description) => {
		await expect(`${sortedJson(description())}\n`).toMatchFileSnapshot(
			`descriptions/${name}.description.json`,
		);
	});
});
