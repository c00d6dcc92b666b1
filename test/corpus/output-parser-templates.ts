/**
 * `npx tsx test/corpus/output-parser-templates.ts`: the corpus templates whose AI Agent has an
 * output parser (Structured, Auto-fixing), each agent run once with `runWorkflowAgent` against a
 * loopback fake model, dummy credentials whose URLs point at that fake, the parser nodes run by
 * n8n's own code. The fake answers prose to a free call and a value generated from the JSON Schema
 * the call is constrained to (`response_format`, a forced `final_answer` tool); with `--never-valid`
 * it only ever answers prose to the agent's model, so an Auto-fixing parser's own model (asked
 * without streaming, its format instructions holding the schema) must fix the answer.
 *
 * Prints one line per agent: runs (the parsed object) or fails (the error code and message).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { runWorkflowAgent, StandaloneHost, readWorkflowInput } from '../../src/index';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import { startFakeChatServer, textReply, toolCallReply } from '../support/fake-chat-server';
import { answer } from '../support/output-parser-workflows';
import { dummyCredentials } from './corpus-fakes';

const templatesDir = resolve(__dirname, '../../fixtures/templates');
const neverValid = process.argv.includes('--never-valid');

type Schema = {
	type?: string | string[];
	properties?: Record<string, Schema>;
	items?: Schema;
	enum?: unknown[];
	anyOf?: Schema[];
	format?: string;
};

/** A value of `schema`: the first enum value, "text", 1, true, one item, every property. */
function valueOf(schema: Schema): unknown {
	if (schema.enum) return schema.enum[0];
	if (schema.anyOf) return valueOf(schema.anyOf[0]);
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	if (type === 'object' || schema.properties)
		return Object.fromEntries(
			Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, valueOf(inner)]),
		);
	if (type === 'array') return [valueOf(schema.items ?? { type: 'string' })];
	if (type === 'number' || type === 'integer') return 1;
	if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
	if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
	if (schema.format === 'date') return '2026-01-01';
	if (schema.format === 'email') return 'someone@example.com';
	if (type === 'boolean') return true;
	return 'text';
}

function templates(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return templates(path);
		return name.endsWith('.json') ? [path] : [];
	});
}

/** The AI Agents of the export with "Require Specific Output Format" and an output parser. */
function parserAgents(workflow: WorkflowExport): string[] {
	const fed = new Set<string>();
	for (const byType of Object.values(workflow.connections))
		for (const connection of (byType.ai_outputParser ?? []).flat())
			if (connection) fed.add(connection.node);
	return workflow.nodes
		.filter(
			(node) =>
				node.type === '@n8n/n8n-nodes-langchain.agent' &&
				node.parameters.hasOutputParser === true &&
				fed.has(node.name),
		)
		.map((node) => node.name);
}

async function main(): Promise<void> {
	const model = await startFakeChatServer({
		respond: (request) => {
			const body = request.body;
			if (body.stream !== true) {
				// An Auto-fixing parser's model: the schema is in its format instructions (```json … ```).
				const prompt = JSON.stringify(body.messages);
				const fenced = /```json\\n([\s\S]*?)\\n```/.exec(prompt);
				const schema = fenced ? (JSON.parse(JSON.parse(`"${fenced[1]}"`)) as Schema) : {};
				return answer(request, JSON.stringify(valueOf(schema)));
			}
			if (neverValid) return textReply('Here is my answer in prose.');
			const format = body.response_format?.json_schema?.schema as Schema | undefined;
			if (format) return textReply(JSON.stringify(valueOf(format)));
			const forced = (body.tools ?? []).find(
				(tool: { function: { name: string } }) => tool.function.name === 'final_answer',
			);
			if (forced && body.tool_choice?.function?.name === 'final_answer')
				return toolCallReply([
					{ name: 'final_answer', arguments: valueOf(forced.function.parameters) as object },
				]);
			return textReply('Here is my answer in prose.');
		},
	});
	const base = await StandaloneHost.create({ env: {} });
	let runs = 0;
	let total = 0;
	for (const path of templates(templatesDir)) {
		let workflow: WorkflowExport;
		try {
			workflow = (await readWorkflowInput(path)) as WorkflowExport;
		} catch {
			continue;
		}
		const agents = parserAgents(workflow);
		if (agents.length === 0) continue;
		const host = await StandaloneHost.create({
			env: {},
			credentials: dummyCredentials(workflow, base, model.baseUrl),
		});
		for (const agent of agents) {
			total++;
			const before = model.requests.length;
			const name = `${relative(templatesDir, path)} / ${agent}`;
			try {
				// A node the agent's expressions read that does not run here is pinned with an empty item (--pin NODE={}).
				const pins: Record<string, unknown> = {};
				const run = await (async function attempt(): Promise<
					Awaited<ReturnType<typeof runWorkflowAgent>>
				> {
					try {
						return await runWorkflowAgent(workflow, {
							host,
							agent,
							prompt: 'What is 2+2*3?',
							skipUnavailable: true,
							pins,
						});
					} catch (error) {
						const { code, nodeName } = error as { code?: string; nodeName?: string };
						if (code !== 'UNRESOLVED_NODE_REFERENCE' || !nodeName || nodeName in pins) throw error;
						pins[nodeName] = {};
						return await attempt();
					}
				})();
				if (Object.keys(pins).length > 0)
					console.log(`       (pinned ${Object.keys(pins).join(', ')} with {})`);
				const object = run.mode === 'full' ? run.result.object : undefined;
				runs++;
				console.log(
					`runs   ${name}: ${model.requests.length - before} model calls, object ${JSON.stringify(object).slice(0, 160)}`,
				);
			} catch (error) {
				const { code, message } = error as { code?: string; message: string };
				console.log(
					`fails  ${name}: ${code ?? 'no code'}: ${message.split('\n')[0].slice(0, 300)}`,
				);
			}
		}
	}
	console.log(
		`\n${runs} of ${total} agents with an output parser ran${neverValid ? ' (--never-valid)' : ''}.`,
	);
	await model.close();
}

void main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
