/**
 * `npm run test:corpus`: the public n8n agent templates in fixtures/templates, loaded and called
 * the way `toolbridge tools` and `toolbridge call` would (through the library, in one process).
 *
 *   loads  every top-level agent of the template lists all its tools (dummy credentials for every
 *          credential the template names; no tool left out as unavailable); otherwise the
 *          reasons are printed — a missing package is named with its install command
 *   calls  for each template with a tool that needs no outside service (see corpus-call.ts), one
 *          call of that tool answers without an error, against loopback fakes and nock
 *   runs   every agent runs end to end as `toolbridge run` does, from its own chat-model node
 *          against a loopback fake of its model (see corpus-agent-run.ts): the prompt reaches the
 *          model, the offline tool the model asks for runs once, the output parser validates
 *
 * Prints the shares, the figures of the runs, per-template tables and what fails by cause (`--markdown` prints the table as Markdown;
 * `--json FILE` writes the results). Exits 1 when a share falls below the floor measured when
 * this run was written (raise the floors when support grows), or when a template crashes the
 * host with an error that is not the package's own (a ToolbridgeError names what is wrong).
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
	findAgentNames,
	loadWorkflowTools,
	readWorkflowInput,
	StandaloneHost,
	ToolbridgeError,
	type WorkflowTools,
} from '../../src/index';
import { assignModelCredentials, runCorpusAgent, type AgentRunResult } from './corpus-agent-run';
import { chooseCall } from './corpus-call';
import { redirectUndiciOrigin } from '../support/redirect-undici-origin';
import { CorpusModel } from './corpus-model';
import { failureCauses, figureLines, runFigures, runTable } from './corpus-run-report';
import {
	dummyCredentials,
	interceptHost,
	interceptPublicHosts,
	releaseNetwork,
	startLoopbackService,
} from './corpus-fakes';

/** Floors: the shares measured when this run was last raised (see docs/real-workflows.md). */
const MIN_LOADS = 73;
const MIN_CALLS = 23;
/** Of the n8n AI Agents: run end to end, user message reached, offline tool called once, parser validated. */
const MIN_RUNS = 82;
const MIN_USER_MESSAGE = 82;
const MIN_TOOL_ONCE = 15;
const MIN_PARSERS = 16;

const templatesDir = resolve(__dirname, '../../fixtures/templates');
const argv = process.argv.slice(2);

interface TemplateResult {
	template: string;
	agents: number;
	tools: number;
	loads: boolean;
	/** Why it does not load: one line per unavailable tool or thrown error. */
	notLoaded: string[];
	/** The tool called, its kind, and what it answered (absent: every tool needs an outside service). */
	call?: { tool: string; kind: string; ok: boolean; answer: string };
	/** Each agent run end to end against its own model's fake. */
	runs: AgentRunResult[];
}

function templateFiles(dir: string): string[] {
	return readdirSync(dir)
		.flatMap((entry) => {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) return templateFiles(path);
			return entry.endsWith('.json') && entry !== 'corpus-index.json' ? [path] : [];
		})
		.sort();
}

async function runTemplate(
	file: string,
	serviceUrl: string,
	model: CorpusModel,
): Promise<TemplateResult> {
	const base = await StandaloneHost.create({ env: {} });
	const workflow = assignModelCredentials(readWorkflowInput(file), base);
	const result: TemplateResult = {
		template: relative(templatesDir, file),
		agents: 0,
		tools: 0,
		loads: true,
		notLoaded: [],
		runs: [],
	};
	const host = await StandaloneHost.create({
		env: {},
		credentials: dummyCredentials(workflow, base, serviceUrl),
	});
	const loaded: WorkflowTools[] = [];
	const toolsOf = new Map<string, WorkflowTools['tools']>();
	try {
		for (const agent of findAgentNames(workflow)) {
			result.agents++;
			try {
				const tools = await loadWorkflowTools(workflow, { host, agent, skipUnavailable: true });
				loaded.push(tools);
				toolsOf.set(agent, tools.tools);
				result.tools += tools.tools.length;
				for (const tool of tools.unavailable) {
					result.loads = false;
					result.notLoaded.push(`${tool.reason}: ${tool.message}`);
				}
			} catch (error) {
				if (!ToolbridgeError.isInstance(error)) throw error;
				result.loads = false;
				result.notLoaded.push(`${error.code}: ${error.message.split('\n')[0]}`);
			}
		}
		const call = chooseCall(
			workflow,
			loaded.flatMap((each) => each.tools),
		);
		if (call) {
			for (const origin of call.intercept) interceptHost(origin);
			const observation = await call.tool.invoke(call.args, {
				toolCallId: 'corpus',
				signal: AbortSignal.timeout(30_000),
			});
			result.call = {
				tool: call.tool.name,
				kind: call.kind,
				ok: !observation.isError,
				answer: observation.content.replace(/\s+/g, ' ').slice(0, 100),
			};
		}
		for (const agent of findAgentNames(workflow))
			result.runs.push(
				await runCorpusAgent(workflow, agent, host, model, toolsOf.get(agent) ?? []),
			);
	} finally {
		await Promise.all(loaded.map((each) => each.close()));
	}
	return result;
}

function table(results: TemplateResult[], markdown: boolean): string {
	const rows = results.map((result) => [
		result.template.replace(/\.json$/, ''),
		`${result.tools}${result.agents > 1 ? ` (${result.agents} agents)` : ''}`,
		result.loads ? 'yes' : `no: ${result.notLoaded.join('; ')}`,
		result.call
			? `${result.call.ok ? 'yes' : 'NO'}: ${result.call.tool} (${result.call.kind}) → ${result.call.answer}`
			: '— (every tool needs an outside service)',
	]);
	const header = ['template', 'tools', 'loads', 'one call'];
	if (markdown) {
		const line = (cells: string[]) =>
			`| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
		return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
	}
	return rows.map((cells) => cells.join('  |  ')).join('\n');
}

async function main(): Promise<void> {
	const started = Date.now();
	const model = new CorpusModel();
	const service = await startLoopbackService(model);
	interceptPublicHosts();
	model.interceptProviderHosts();
	// Mistral's node calls through n8n's own undici dispatcher, which nock does not see.
	const restoreMistral = redirectUndiciOrigin('https://api.mistral.ai', service.url);
	const results: TemplateResult[] = [];
	try {
		for (const file of templateFiles(templatesDir))
			results.push(await runTemplate(file, service.url, model));
	} finally {
		restoreMistral();
		releaseNetwork();
		await service.close();
	}
	const loads = results.filter((result) => result.loads).length;
	const callable = results.filter((result) => result.call);
	const calls = callable.filter((result) => result.call?.ok).length;
	const markdown = argv.includes('--markdown');
	const figures = runFigures(results);
	process.stdout.write(`${table(results, markdown)}\n\n`);
	process.stdout.write(`Agent runs:\n\n${runTable(results, markdown)}\n\n`);
	process.stdout.write(`What fails, by cause:\n\n${failureCauses(results)}\n\n`);
	process.stdout.write(
		`loads: ${loads} of ${results.length} templates (${results.reduce((sum, result) => sum + result.tools, 0)} tools listed)\n` +
			`calls: ${calls} of ${callable.length} templates whose tools need no outside service answered one call (${callable.length} of ${results.length} have such a tool)\n` +
			`${figureLines(figures)}\n` +
			`time: ${Math.round((Date.now() - started) / 1000)} s\n`,
	);
	const jsonFile = argv[argv.indexOf('--json') + 1];
	if (argv.includes('--json') && jsonFile)
		writeFileSync(jsonFile, `${JSON.stringify(results, null, 1)}\n`);
	const floors: [string, number, number][] = [
		['loads', loads, MIN_LOADS],
		['calls', calls, MIN_CALLS],
		['agents run', figures.runs, MIN_RUNS],
		['user message reached', figures.userMessage, MIN_USER_MESSAGE],
		['tool called once', figures.toolOnce, MIN_TOOL_ONCE],
		['parser validated', figures.parsersValidated, MIN_PARSERS],
	];
	const below = floors.filter(([, value, floor]) => value < floor);
	if (below.length > 0) {
		process.stderr.write(
			`corpus below its floor: ${below.map(([name, value, floor]) => `${name} ${value} (floor ${floor})`).join(', ')}\n`,
		);
		process.exitCode = 1;
	}
}

main()
	.catch((error) => {
		process.stderr.write(`corpus run FAILED: ${(error as Error).stack ?? String(error)}\n`);
		process.exitCode = 1;
	})
	// A node library may keep a timer (a database pool's): the run ends when its output is written.
	.finally(() => setImmediate(() => process.exit()));
