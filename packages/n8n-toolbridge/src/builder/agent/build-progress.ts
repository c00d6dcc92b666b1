import type { Usage } from 'n8n-nodes-toolbridge';
import { issueLine } from './correction-message';
import type { BuildEvent, BuildResult } from './build-workflow';

const maxShown = 160;

/** At most this many issues per check are printed as progress. */
const ISSUES_SHOWN = 8;

/**
 * The progress lines of a build event for stderr (searches, node lookups, checks with their
 * issues); none for events not worth a line.
 */
export function buildProgressLines(event: BuildEvent): string[] {
	switch (event.type) {
		case 'catalog':
			return [
				`node descriptions: ${event.packages
					.map(
						(found) =>
							`${found.name}${found.version ? `@${found.version}` : ''} (${found.nodeTypes}${found.source === 'installed' ? '' : `, ${found.source}: described only`})`,
					)
					.join(', ')}`,
			];
		case 'notice':
			return [event.message];
		case 'model-call':
			return [`model call ${event.call} (round ${event.round})`];
		case 'search':
			return [shorten(`search_nodes: ${event.queries.join(' | ')}`)];
		case 'lookup':
			return [shorten(`get_nodes: ${event.nodeIds.join(', ')}`)];
		case 'check': {
			const { check, round, sentBack } = event;
			const errors = check.issues.filter((issue) => issue.severity === 'error');
			const warnings = check.issues.filter((issue) => issue.severity === 'warning');
			const tools = check.agents
				.map((agent) => `agent "${agent.agent}": ${agent.tools.join(', ') || 'no tools loaded'}`)
				.join('; ');
			const verdict = check.valid ? 'valid' : 'invalid';
			const lines = [
				`check ${round}: ${verdict}, ${errors.length} error(s), ${warnings.length} warning(s)${tools ? `; ${tools}` : ''}${sentBack ? ' → sent back for correction' : ''}`,
			];
			for (const issue of [...errors, ...warnings].slice(0, ISSUES_SHOWN))
				lines.push(`  ${shorten(issueLine(issue))}`);
			return lines;
		}
	}
}

/** The closing line: outcome, rounds, calls, tokens and cost (when the server reported it). */
export function buildSummaryLine(result: BuildResult): string {
	const outcome = result.valid
		? 'built a valid workflow'
		: `no valid workflow (${result.stopReason})`;
	return `${outcome} in ${(result.durationMs / 1000).toFixed(1)} s with ${result.model}: ${result.rounds} round(s), ${result.modelCalls} model call(s), ${result.toolCalls} tool call(s); ${usageText(result.usage)}`;
}

/** Token counts and cost, e.g. `12345 tokens (10000 in, 2345 out), cost $0.0123`. */
export function usageText(usage: Usage): string {
	const cost = usage.cost === undefined ? '' : `, cost $${usage.cost.toFixed(4)}`;
	return `${usage.totalTokens} tokens (${usage.promptTokens} in, ${usage.completionTokens} out)${cost}`;
}

function shorten(text: string): string {
	const flat = text.replace(/\s+/g, ' ');
	return flat.length > maxShown ? `${flat.slice(0, maxShown)}…` : flat;
}

/** A build's result and its stats as one JSON object: `toolbridge build --json`, MCP's `build_workflow`. */
export function buildResultJson(result: BuildResult): Record<string, unknown> {
	const { valid, workflow, code, issues, credentialsNeeded, agents } = result;
	return {
		valid,
		workflow,
		code,
		issues,
		credentialsNeeded,
		agents,
		stats: {
			stopReason: result.stopReason,
			model: result.model,
			rounds: result.rounds,
			modelCalls: result.modelCalls,
			toolCalls: result.toolCalls,
			usage: result.usage,
			usageText: usageText(result.usage),
			durationMs: result.durationMs,
		},
	};
}
