/**
 * `npm run test:corpus`: the public n8n agent templates in fixtures/templates, loaded and called
 * the way `toolbridge tools` and `toolbridge call` would (through the library, in one process).
 *
 *   loads  every top-level agent of the template lists all its tools (dummy credentials for every
 *          credential the template names; no tool left out as unavailable); otherwise the
 *          reasons are printed — a missing package is named with its install command
 *   calls  for each template with a tool that needs no outside service (see corpus-call.ts), one
 *          call of that tool answers without an error, against loopback fakes and nock
 *
 * Prints both shares and a per-template table (`--markdown` prints the table as Markdown;
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
import { chooseCall } from './corpus-call';
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

async function runTemplate(file: string, serviceUrl: string): Promise<TemplateResult> {
	const workflow = readWorkflowInput(file);
	const result: TemplateResult = {
		template: relative(templatesDir, file),
		agents: 0,
		tools: 0,
		loads: true,
		notLoaded: [],
	};
	const base = await StandaloneHost.create({ env: {} });
	const host = await StandaloneHost.create({
		env: {},
		credentials: dummyCredentials(workflow, base, serviceUrl),
	});
	const loaded: WorkflowTools[] = [];
	try {
		for (const agent of findAgentNames(workflow)) {
			result.agents++;
			try {
				const tools = await loadWorkflowTools(workflow, { host, agent, skipUnavailable: true });
				loaded.push(tools);
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
	const service = await startLoopbackService();
	interceptPublicHosts();
	const results: TemplateResult[] = [];
	try {
		for (const file of templateFiles(templatesDir))
			results.push(await runTemplate(file, service.url));
	} finally {
		releaseNetwork();
		await service.close();
	}
	const loads = results.filter((result) => result.loads).length;
	const callable = results.filter((result) => result.call);
	const calls = callable.filter((result) => result.call?.ok).length;
	process.stdout.write(`${table(results, argv.includes('--markdown'))}\n\n`);
	process.stdout.write(
		`loads: ${loads} of ${results.length} templates (${results.reduce((sum, result) => sum + result.tools, 0)} tools listed)\n` +
			`calls: ${calls} of ${callable.length} templates whose tools need no outside service answered one call (${callable.length} of ${results.length} have such a tool)\n`,
	);
	const jsonFile = argv[argv.indexOf('--json') + 1];
	if (argv.includes('--json') && jsonFile)
		writeFileSync(jsonFile, `${JSON.stringify(results, null, 1)}\n`);
	if (loads < MIN_LOADS || calls < MIN_CALLS) {
		process.stderr.write(
			`corpus below its floor: loads ${loads} (floor ${MIN_LOADS}), calls ${calls} (floor ${MIN_CALLS})\n`,
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
