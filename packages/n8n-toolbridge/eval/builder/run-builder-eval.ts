/**
 * `npm run eval:builder`: the workflow builder's evaluation.
 *
 * 1. Offline (always): every prompt of cases/ is replayed — the recorded model turns are served
 *    by a loopback fake of the Chat Completions API — through the real builder (search_nodes,
 *    get_nodes, parse, checks, tools loaded in the standalone host, corrections). Each row must
 *    give what its recording expects; any difference makes the run exit 1.
 * 2. With a model (OPENROUTER_API_KEY, or --base-url / --api-key; --model picks one; --offline
 *    skips it): the same prompts against the real model, the same table.
 * 3. Round trip: JSON → SDK code → JSON over the workflow exports under fixtures/ (or
 *    --templates DIR …), read back the way the builder reads a model's code; its fidelity.
 *
 * Options: --only REGEX (case ids), --templates DIR (repeatable), --offline, --model M,
 * --base-url URL, --api-key KEY, --max-iterations N.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StandaloneHost } from 'n8n-nodes-toolbridge';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeReply,
} from '../../../../test/support/fake-chat-server';
import {
	buildWorkflow,
	type BuildEvent,
	type BuildResult,
} from '../../src/builder/agent/build-workflow';
import { usageText } from '../../src/builder/agent/build-progress';
import { NodeCatalog } from '../../src/builder/catalog/node-catalog';
import type { WorkflowCheck } from '../../src/builder/validate/check-workflow';
import type { BuilderEvalCase, RecordedTurn } from './eval-case';
import { builderEvalCases } from './cases';
import { roundTrip, workflowFiles, type RoundTripReport } from './round-trip';

const repoRoot = resolve(__dirname, '../../../..');

interface Row {
	id: string;
	note?: string;
	first?: WorkflowCheck;
	result?: BuildResult;
	error?: string;
	/** Offline: the difference from what the recording expects. */
	mismatch?: string;
}

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			only: { type: 'string' },
			templates: { type: 'string', multiple: true },
			offline: { type: 'boolean' },
			model: { type: 'string' },
			'base-url': { type: 'string' },
			'api-key': { type: 'string' },
			'max-iterations': { type: 'string' },
		},
	});
	const only = values.only ? new RegExp(values.only) : undefined;
	const cases = builderEvalCases.filter((entry) => !only || only.test(entry.id));
	console.log(`== builder eval: ${cases.length} prompts`);
	const host = await StandaloneHost.create({ env: {} });
	const catalog = await NodeCatalog.load({
		host,
		langChain: { onNotice: (line) => console.log(`   ${line}`) },
	});
	console.log(
		`   node descriptions: ${catalog.packages.map((found) => `${found.name}${found.version ? `@${found.version}` : ''} (${found.nodeTypes}, ${found.source})`).join(', ')}`,
	);

	let failed = false;
	const offline = await runCases(cases, async (entry, onEvent) =>
		replay(entry, { host, catalog, onEvent }),
	);
	for (const row of offline)
		row.mismatch = mismatch(
			row,
			cases.find((entry) => entry.id === row.id)!,
		);
	printTables('offline: recorded answers replayed through a loopback fake model', offline, true);
	if (offline.some((row) => row.mismatch)) failed = true;

	const env = process.env;
	const real =
		!values.offline && Boolean(values['base-url'] || values['api-key'] || env.OPENROUTER_API_KEY);
	if (real) {
		const rows = await runCases(cases, (entry, onEvent) =>
			buildWorkflow({
				request: entry.prompt,
				from: fromOf(entry),
				model: values.model,
				baseUrl: values['base-url'],
				apiKey: values['api-key'],
				env,
				maxIterations: values['max-iterations'] ? Number(values['max-iterations']) : undefined,
				host,
				catalog,
				onEvent,
			}),
		);
		printTables(
			`real model: ${rows.find((row) => row.result)?.result?.model ?? values.model ?? 'default'}`,
			rows,
			false,
		);
	} else {
		console.log(
			'\n(no model key: the real-model run is skipped; set OPENROUTER_API_KEY or give --base-url/--api-key to run it)',
		);
	}

	const dirs = values.templates?.map((dir) => resolve(dir)) ?? [resolve(repoRoot, 'fixtures')];
	const report = roundTrip(workflowFiles(dirs));
	printRoundTrip(report, dirs);
	if (report.readFailures.length > 0) failed = true;
	return failed ? 1 : 0;
}

type Runner = (
	entry: BuilderEvalCase,
	onEvent: (event: BuildEvent) => void,
) => Promise<BuildResult>;

async function runCases(cases: BuilderEvalCase[], run: Runner): Promise<Row[]> {
	const rows: Row[] = [];
	for (const entry of cases) {
		const row: Row = { id: entry.id, note: entry.note };
		try {
			row.result = await run(entry, (event) => {
				if (event.type === 'check' && event.round === 1) row.first = event.check;
			});
		} catch (error) {
			row.error = (error as Error).message.split('\n')[0];
		}
		console.log(
			`   ${row.result?.valid ? 'valid  ' : 'INVALID'} ${entry.id}${row.error ? ` — ${row.error}` : ''}`,
		);
		rows.push(row);
	}
	return rows;
}

/** Serves a case's recorded turns, in order, from a loopback fake of the Chat Completions API. */
async function replay(
	entry: BuilderEvalCase,
	context: { host: StandaloneHost; catalog: NodeCatalog; onEvent: (event: BuildEvent) => void },
): Promise<BuildResult> {
	const server = await startFakeChatServer({
		respond: ({ index }) => replyOf(entry.turns[index]),
	});
	let counter = 0;
	try {
		return await buildWorkflow({
			request: entry.prompt,
			from: fromOf(entry),
			baseUrl: server.baseUrl,
			model: 'recorded',
			env: {},
			...context,
			randomId: (kind) =>
				kind === 'workflow'
					? `Eval${String(++counter).padStart(12, '0')}`
					: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
		});
	} finally {
		await server.close();
	}
}

function replyOf(turn: RecordedTurn | undefined): FakeReply {
	if (!turn) return textReply('(the recording has no further answer)');
	if ('text' in turn) return textReply(turn.text);
	return toolCallReply(turn.toolCalls.map((call, index) => ({ id: `call_${index}`, ...call })));
}

function fromOf(entry: BuilderEvalCase): string | object | undefined {
	if (typeof entry.from !== 'string') return entry.from;
	return JSON.parse(readFileSync(resolve(repoRoot, entry.from), 'utf8')) as object;
}

function mismatch(row: Row, entry: BuilderEvalCase): string | undefined {
	if (row.error) return row.error;
	const { valid, rounds } = row.result!;
	if (valid !== entry.expect.valid) return `valid ${valid}, expected ${entry.expect.valid}`;
	const allowed = entry.expect.rounds;
	// A LangChain tool sub-node is a warning (one more round) only while the add-on is not installed.
	const langChainInstalled = row.result?.agents.every((agent) => agent.notLoaded.length === 0);
	if (rounds !== allowed && !(langChainInstalled && rounds === allowed - 1))
		return `${rounds} round(s), expected ${allowed}`;
	return undefined;
}

const percent = (part: number, whole: number) =>
	whole === 0 ? '—' : `${part}/${whole} (${Math.round((100 * part) / whole)} %)`;
const mark = (flag: boolean | undefined) => (flag === undefined ? '—' : flag ? 'yes' : 'no');

function printTables(title: string, rows: Row[], offline: boolean): void {
	console.log(`\n### ${title}\n`);
	console.log(
		'| prompt | first answer parsed | first answer valid | rounds | final valid | agents: tools loaded | model calls | note |',
	);
	console.log('|---|---|---|---:|---|---|---:|---|');
	for (const row of rows) {
		const result = row.result;
		const agents = result?.agents ?? [];
		const loaded = agents.reduce((sum, agent) => sum + agent.tools.length, 0);
		const describedOnly = agents.reduce((sum, agent) => sum + agent.notLoaded.length, 0);
		const tools =
			agents.length === 0
				? '—'
				: `${loaded}${describedOnly ? ` (+${describedOnly} described only)` : ''}`;
		const firstParsed = row.first
			? !row.first.issues.some((issue) => issue.source === 'parse')
			: undefined;
		console.log(
			`| ${row.id} | ${mark(firstParsed)} | ${mark(row.first?.valid)} | ${result?.rounds ?? '—'} | ${mark(result?.valid)}${result && !result.valid ? ` (${result.stopReason})` : ''} | ${tools} | ${result?.modelCalls ?? '—'} | ${[row.note, row.error, offline && row.mismatch ? `MISMATCH: ${row.mismatch}` : undefined].filter(Boolean).join('; ')} |`,
		);
	}
	const done = rows.filter((row) => row.result);
	const firstParsed = rows.filter(
		(row) => row.first && !row.first.issues.some((issue) => issue.source === 'parse'),
	).length;
	const firstValid = rows.filter((row) => row.first?.valid).length;
	const finalParsed = done.filter((row) => row.result!.workflow).length;
	const finalValid = done.filter((row) => row.result!.valid).length;
	const corrected = done.filter((row) => row.first && !row.first.valid && row.result!.valid).length;
	const neededCorrection = done.filter((row) => row.first && !row.first.valid).length;
	const withAgents = done.filter((row) => row.result!.agents.length > 0);
	const agentsOk = withAgents.filter((row) => {
		const result = row.result!;
		return (
			result.valid &&
			!result.issues.some((issue) => issue.code === 'TOOL_LOAD') &&
			result.agents.every((agent) => agent.tools.length + agent.notLoaded.length > 0)
		);
	}).length;
	const tools = done.reduce(
		(sum, row) => sum + row.result!.agents.reduce((inner, agent) => inner + agent.tools.length, 0),
		0,
	);
	const describedOnly = done.reduce(
		(sum, row) =>
			sum + row.result!.agents.reduce((inner, agent) => inner + agent.notLoaded.length, 0),
		0,
	);
	const rounds = done.reduce((sum, row) => sum + row.result!.rounds, 0);
	const calls = done.reduce((sum, row) => sum + row.result!.modelCalls, 0);
	const usage = done.reduce(
		(sum, row) => ({
			promptTokens: sum.promptTokens + row.result!.usage.promptTokens,
			completionTokens: sum.completionTokens + row.result!.usage.completionTokens,
			totalTokens: sum.totalTokens + row.result!.usage.totalTokens,
			cost:
				sum.cost === undefined && row.result!.usage.cost === undefined
					? undefined
					: (sum.cost ?? 0) + (row.result!.usage.cost ?? 0),
		}),
		{ promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: undefined as number | undefined },
	);
	console.log(`\n| ${title.split(':')[0]} | |\n|---|---|`);
	console.log(
		`| prompts | ${rows.length}${rows.length > done.length ? ` (${rows.length - done.length} failed to run)` : ''} |`,
	);
	console.log(`| parse rate, first answer | ${percent(firstParsed, rows.length)} |`);
	console.log(`| validation rate, first answer | ${percent(firstValid, rows.length)} |`);
	console.log(`| parse rate, final answer | ${percent(finalParsed, rows.length)} |`);
	console.log(`| validation rate, final answer | ${percent(finalValid, rows.length)} |`);
	console.log(`| corrected by the loop | ${percent(corrected, neededCorrection)} |`);
	console.log(
		`| load rate: agent workflows valid with every tool loaded | ${percent(agentsOk, withAgents.length)} (${tools} tools loaded, ${describedOnly} described only) |`,
	);
	console.log(
		`| rounds / model calls | ${rounds} / ${calls} (${(calls / Math.max(1, done.length)).toFixed(1)} calls per prompt) |`,
	);
	if (!offline) console.log(`| tokens | ${usageText(usage)} |`);
	if (offline)
		console.log(
			`| rows as recorded | ${percent(rows.filter((row) => !row.mismatch).length, rows.length)} |`,
		);
}

function printRoundTrip(report: RoundTripReport, dirs: string[]): void {
	const rate = (same: number, total: number) =>
		total === 0 ? '—' : `${((100 * same) / total).toFixed(2)} %`;
	console.log(
		`\n### round trip: JSON → SDK code → JSON (${dirs.map((dir) => dir.replace(`${repoRoot}/`, '')).join(', ')})\n`,
	);
	console.log('| | |\n|---|---|');
	console.log(
		`| workflow exports | ${report.workflows} (${report.nodes} nodes, ${report.edges} connections) |`,
	);
	console.log(`| code generation failures | ${report.generateFailures} |`);
	console.log(`| generated code refused when read back | ${report.readFailures.length} |`);
	console.log(
		`| node type / version | ${rate(report.sameType, report.nodes)} / ${rate(report.sameVersion, report.nodes)} |`,
	);
	console.log(`| parameters | ${rate(report.sameParameters, report.nodes)} |`);
	console.log(`| credentials | ${rate(report.sameCredentials, report.nodes)} |`);
	console.log(`| settings (flags, notes, webhook ids) | ${rate(report.sameFlags, report.nodes)} |`);
	console.log(`| connections | ${rate(report.sameEdges, report.edges)} |`);
	console.log(`| workflows exact | ${percent(report.exact, report.workflows)} |`);
	console.log(
		`| exact but the SDK's known drops (webhook ids, credentials without id) | ${percent(report.exactButKnownDrops, report.workflows)} |`,
	);
	for (const failure of report.readFailures) console.log(`   refused: ${failure}`);
	for (const other of report.otherDifferences.slice(0, 10))
		console.log(
			`   ${other.file.replace(`${repoRoot}/`, '')}: ${other.differences.slice(0, 3).join('; ')}`,
		);
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	},
);
