/**
 * What the corpus's agent runs add up to: the figures (agents run end to end, user message
 * reached, offline tool called once, output parser validated), a per-template table, and the
 * failures grouped by cause — printed by run-corpus.ts and copied into docs/real-workflows.md.
 */
import type { AgentRunResult } from './corpus-agent-run';

/** The agent runs of one template. */
export interface TemplateRuns {
	template: string;
	runs: AgentRunResult[];
}

/** The run figures over the whole corpus. */
export interface RunFigures {
	/** n8n AI Agent nodes: every other figure counts among them. */
	agents: number;
	/** Other top-level nodes with tools (n8n's OpenAI node messaging an assistant or a model), not agents toolbridge runs. */
	others: number;
	runs: number;
	userMessage: number;
	/** Agents whose model asked for an offline tool, and those where it ran exactly once without an error. */
	toolAsked: number;
	toolOnce: number;
	/** Agents with an output parser, and those whose answer it validated. */
	parsers: number;
	parsersValidated: number;
}

/** Adds up the runs. */
export function runFigures(templates: TemplateRuns[]): RunFigures {
	const every = templates.flatMap((template) => template.runs);
	const all = every.filter((run) => run.type === 'agent');
	const asked = all.filter((run) => run.tool);
	const parsed = all.filter((run) => run.parser);
	return {
		agents: all.length,
		others: every.length - all.length,
		runs: all.filter((run) => run.runs).length,
		userMessage: all.filter((run) => run.userMessage).length,
		toolAsked: asked.length,
		toolOnce: asked.filter((run) => run.tool?.calls === 1 && run.tool.ok && run.tool.argumentsFit)
			.length,
		parsers: parsed.length,
		parsersValidated: parsed.filter((run) => run.parser?.validated).length,
	};
}

/** The figures as printed lines. */
export function figureLines(figures: RunFigures): string {
	return [
		`agents: ${figures.agents} n8n AI Agents (and ${figures.others} OpenAI nodes with tools, which are not agents toolbridge runs)`,
		`run end to end: ${figures.runs} of ${figures.agents}`,
		`user message reached the model: ${figures.userMessage} of ${figures.agents}`,
		`offline tool called exactly once: ${figures.toolOnce} of ${figures.toolAsked} agents whose model asked for one`,
		`output parser validated: ${figures.parsersValidated} of ${figures.parsers} agents with a parser`,
	].join('\n');
}

/** Why n8n's OpenAI nodes with tools are not run. */
const NOT_AN_AGENT =
	"not an AI Agent: n8n's OpenAI node messaging a model or an assistant, which toolbridge does not run";

/** One line per agent: what ran, or why not. */
function describeRun(run: AgentRunResult): string {
	if (run.type !== 'agent') return `${run.agent} (${run.type}): ${NOT_AN_AGENT}`;
	const parts = [`${run.agent} (${run.model})`];
	if (run.pinned) parts.push(`with ${run.pinned.map((name) => `--pin '${name}={}'`).join(' ')}`);
	if (run.failure) parts.push(`fails: ${run.failure}`);
	else parts.push(run.runs ? 'runs' : 'no answer');
	if (!run.userMessage) parts.push('user message NOT sent');
	if (run.tool)
		parts.push(
			`${run.tool.name} ×${run.tool.calls}${run.tool.ok ? '' : ' (error)'}${run.tool.argumentsFit ? '' : ' (arguments do not fit its schema)'}`,
		);
	if (run.parser)
		parts.push(`${run.parser.type} ${run.parser.validated ? 'validated' : 'NOT validated'}`);
	return parts.join(', ');
}

/** The per-template table of runs (Markdown, or plain columns). */
export function runTable(templates: TemplateRuns[], markdown: boolean): string {
	const rows = templates.map((template) => {
		const ran = template.runs.filter((run) => run.runs).length;
		return [
			template.template.replace(/\.json$/, ''),
			`${ran} of ${template.runs.length}`,
			template.runs.map(describeRun).join('; ') || '—',
		];
	});
	const header = [
		'template',
		'agents run',
		'per agent: model, outcome, user message, tool calls, parser',
	];
	if (markdown) {
		const line = (cells: string[]) =>
			`| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
		return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
	}
	return rows.map((cells) => cells.join('  |  ')).join('\n');
}

/**
 * The agents that did not run end to end (or whose user message, tool call or parser failed),
 * grouped by cause: the error with node names and quoted values left out.
 */
export function failureCauses(templates: TemplateRuns[]): string {
	const groups = new Map<string, string[]>();
	const add = (cause: string, where: string) =>
		groups.set(cause, [...(groups.get(cause) ?? []), where]);
	for (const template of templates) {
		for (const run of template.runs) {
			const where = `${template.template.replace(/\.json$/, '').replace(/^.*\//, '')} / ${run.agent}`;
			if (run.type !== 'agent') {
				add(NOT_AN_AGENT, where);
				continue;
			}
			if (run.failure) add(causeOf(run.failure), where);
			else if (!run.runs) add('the run ended without an answer', where);
			if (!run.userMessage && !run.failure) add('the user message did not reach the model', where);
			if (run.tool && !(run.tool.calls === 1 && run.tool.ok && run.tool.argumentsFit))
				add(
					`tool ${run.tool.kind}: called ${run.tool.calls}×${run.tool.ok ? '' : ', with an error'}`,
					where,
				);
			if (run.parser && !run.parser.validated && run.runs)
				add(`output parser ${run.parser.type} not validated`, where);
		}
	}
	return [...groups.entries()]
		.sort((a, b) => b[1].length - a[1].length)
		.map(([cause, where]) => `- ${cause} (${where.length}): ${where.join('; ')}`)
		.join('\n');
}

/** A failure with names and quoted values left out, so that alike failures group. */
function causeOf(failure: string): string {
	return failure
		.replace(/"[^"]*"/g, '"…"')
		.replace(/\([^)]*\)/g, '(…)')
		.slice(0, 240);
}
