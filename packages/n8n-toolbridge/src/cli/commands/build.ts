import { writeFileSync } from 'node:fs';
import { AgentConfigurationError } from 'n8n-nodes-toolbridge';
import type { BuildResult } from '../../builder/agent/build-workflow';
import { EXIT, type CliCommand } from '../cli-command';
import { connectionFrom, connectionOptions, hostOptionsFrom } from '../host-options';
import { UsageError } from '../../errors/usage-error';

/** `toolbridge build "<sentence>"`: an n8n workflow from a sentence, checked by loading what it builds. */
export const buildCommand: CliCommand = {
	name: 'build',
	summary: 'build an n8n workflow from a sentence (checked, its agent tools loaded)',
	help: `Usage: toolbridge build "<what the workflow should do>" [--from workflow.json] [--out FILE] [--json]
                        [--model M] [--base-url URL] [--api-key KEY] [--package DIR]

Builds an n8n workflow with a model: it searches the node descriptions installed here
(n8n-nodes-base, n8n's LangChain nodes, community packages), reads their parameter types and
writes the workflow as code for @n8n/workflow-sdk. The code is read without running it and
checked — connections, every node against its description, and every agent's tools are loaded
and their $fromAI compiled — and the errors go back to the model until the code is valid.
Prints the workflow JSON (n8n import:workflow takes it; laid out, with a fresh id); progress,
the checks and the token count go to stderr.

n8n's LangChain nodes (AI Agent, chat models, tool sub-nodes) are described from the installed
@n8n/n8n-nodes-langchain, else from its tarball (descriptions only, about 1.8 MB) fetched once
with npm into ~/.cache/toolbridge (TOOLBRIDGE_CACHE_DIR moves it).

Options:
  --from FILE          edit this workflow export instead of starting from nothing
  --out FILE           write the workflow JSON here instead of stdout
  --json               print { valid, workflow, code, issues, credentialsNeeded, agents, stats }
  --model M            the model (default on OpenRouter: anthropic/claude-sonnet-4.5)
  --base-url URL       the Chat Completions server; else OPENAI_BASE_URL, OPENROUTER_BASE_URL,
                       then OpenRouter
  --api-key KEY        else OPENROUTER_API_KEY; not needed for a server on localhost
  --max-iterations N   model calls over all correction rounds (default 25)
  --package DIR        also describe and load node types from this package folder (repeatable);
                       TOOLBRIDGE_PACKAGE_DIRS adds more (path-list)
  --debug              show stack traces

Exit codes: 0 a valid workflow, 1 no valid workflow within the budget (its issues are printed)
or a model call failed, 2 usage (no request, no key or model, a bad --from file).`,
	options: {
		...connectionOptions,
		from: { type: 'string' },
		out: { type: 'string' },
		json: { type: 'boolean' },
		package: { type: 'string', multiple: true },
		'max-iterations': { type: 'string' },
	},
	async run({ positionals, values, io }) {
		const request = positionals.join(' ').trim();
		if (request === '')
			throw new UsageError('Say what the workflow should do: toolbridge build "<sentence>"');
		const maxIterations = positiveInteger(values['max-iterations']);
		const { packageDirs, nodeTypes } = hostOptionsFrom(values, io.env);
		const progress = (line: string) => io.stderr(`toolbridge build: ${line}\n`);
		// The builder (and @n8n/workflow-sdk) loads only for this command.
		const { buildWorkflow } = await import('../../builder/agent/build-workflow');
		const { buildProgressLines, buildResultJson, buildSummaryLine } =
			await import('../../builder/agent/build-progress');
		const { issueLine } = await import('../../builder/agent/correction-message');
		let result: BuildResult;
		try {
			result = await buildWorkflow({
				...connectionFrom(values, io.env),
				request,
				from: values.from as string | undefined,
				packageDirs,
				nodeTypes,
				maxIterations,
				onEvent: (event) => {
					for (const line of buildProgressLines(event)) progress(line);
				},
			});
		} catch (error) {
			// Settings problems (no key, no model, bad URL) are the caller's to fix: exit 2.
			if (error instanceof AgentConfigurationError) throw new UsageError(error.message);
			throw error;
		}
		progress(buildSummaryLine(result));
		for (const credential of result.credentialsNeeded)
			progress(
				`credential to set in n8n: ${credential.type} "${credential.name}" (node "${credential.node}")`,
			);
		if (values.json) {
			io.stdout(`${JSON.stringify(buildResultJson(result), null, 2)}\n`);
			return result.valid ? EXIT.ok : EXIT.runtimeError;
		}
		if (!result.valid || !result.workflow) {
			for (const issue of result.issues.filter((found) => found.severity === 'error'))
				io.stderr(`${issueLine(issue)}\n`);
			return EXIT.runtimeError;
		}
		const text = `${JSON.stringify(result.workflow, null, 2)}\n`;
		if (values.out) {
			writeFileSync(values.out as string, text);
			progress(
				`wrote ${values.out as string} (import with: n8n import:workflow --input=${values.out as string})`,
			);
		} else io.stdout(text);
		return EXIT.ok;
	},
};

function positiveInteger(value: unknown): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1)
		throw new UsageError(`--max-iterations must be a positive integer, not "${String(value)}".`);
	return number;
}
