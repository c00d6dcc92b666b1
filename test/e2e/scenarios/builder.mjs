// @ts-check
/**
 * Issue 26: a workflow built by `toolbridge build` from a recorded builder run (a wrong first
 * answer, corrected) imports into the real n8n (`n8n import:workflow`), executes
 * (`n8n execute`: n8n's AI Agent calls the built Crypto tool through the fake model) and its
 * agent's tools load in `toolbridge tools`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { matchStreaming } from '../lib/fake-model.mjs';
import { runCommand } from '../lib/run-command.mjs';
import {
	FAKE_API_KEY,
	nodeOutput,
	openRouterCredential,
	runDataOf,
	runError,
} from '../lib/workflows.mjs';

const PROMPT =
	'When I click run, an AI agent hashes the text "hello toolbridge" with SHA-256 using a tool.';
const TEXT = 'hello toolbridge';
const SHA256 = createHash('sha256').update(TEXT, 'utf8').digest('hex');

/** @param {string} hashType */
const builtCode = (hashType) => `const start = trigger({
  type: 'n8n-nodes-base.manualTrigger',
  version: 1,
  config: { name: 'When clicking Execute' }
});

const chatModel = languageModel({
  type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter',
  version: 1,
  config: {
    name: 'OpenRouter Model',
    parameters: { model: 'fake/agent-model', options: {} },
    credentials: { openRouterApi: newCredential('OpenRouter account') }
  }
});

const hashText = tool({
  type: 'n8n-nodes-base.cryptoTool',
  version: 2,
  config: {
    name: 'Hash text',
    parameters: {
      action: 'hash',
      type: '${hashType}',
      value: fromAi('text', 'The exact text to hash'),
      dataPropertyName: 'sha256',
      toolDescription: 'Hashes a text with SHA-256 and returns the hex digest'
    }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Hashing Agent',
    parameters: {
      promptType: 'define',
      text: 'Hash the text "${TEXT}" with SHA-256.',
      options: { systemMessage: 'Use the "Hash text" tool for every hash; answer with the digest.' }
    },
    subnodes: { model: chatModel, tools: [hashText] }
  }
});

export default workflow('hash-on-click', 'Hash on click')
  .add(start)
  .to(agent);`;

/** The builder model's recorded turns: search, node types, a wrong answer, the fix. */
const BUILDER_TURNS = [
	{
		tool: 'search_nodes',
		arguments: { queries: ['manual trigger', 'ai agent', 'openrouter chat model', 'hash'] },
	},
	{
		tool: 'get_nodes',
		arguments: { nodeIds: ['n8n-nodes-base.cryptoTool', '@n8n/n8n-nodes-langchain.agent'] },
	},
	{ text: `Here is the workflow.\n\n\`\`\`javascript\n${builtCode('SHA-256')}\n\`\`\`` },
	{ text: `Fixed the hash type.\n\n\`\`\`javascript\n${builtCode('SHA256')}\n\`\`\`` },
];

/**
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function builtWorkflowRuns(scope) {
	const { repoDir, install } = scope.run;
	const folder = mkdtempSync(join(tmpdir(), 'toolbridge-e2e-builder-'));
	const builtFile = join(folder, 'built.json');
	const cli = join(repoDir, 'packages/n8n-toolbridge/bin/toolbridge.js');
	// The LangChain add-on as a user installs it: here, the copy inside the provisioned n8n.
	const langChain = join(install.n8nDir, 'node_modules/@n8n/n8n-nodes-langchain');
	const env = { PATH: process.env.PATH ?? '', HOME: folder };

	// 1. toolbridge build against the builder model's recording.
	const builderModel = await scope.startFake(
		(/** @type {any} */ request, /** @type {any} */ fake) => {
			const turn = BUILDER_TURNS[request.index];
			if (!turn)
				throw new Error(
					`the builder asked the model ${request.index + 1} times; the recording has ${BUILDER_TURNS.length} turns`,
				);
			return 'text' in turn
				? fake.textReply(turn.text)
				: fake.toolCallReply([
						{ id: `call_${request.index}`, name: turn.tool, arguments: turn.arguments },
					]);
		},
	);
	const build = await runCommand(
		process.execPath,
		[
			cli,
			'build',
			PROMPT,
			'--base-url',
			builderModel.baseUrl,
			'--model',
			'recorded',
			'--out',
			builtFile,
			...(existsSync(langChain) ? ['--package', langChain] : []),
		],
		{ cwd: folder, env, timeoutMs: 180_000 },
	);
	builderModel.assertNoFailures();
	if (build.code !== 0)
		throw new Error(`toolbridge build exited ${build.code}:\n${build.stderr.slice(-2000)}`);
	for (const expected of [
		/check 1: invalid, 1 error\(s\).*→ sent back for correction/,
		/\[OPTION_NOT_ALLOWED\] node "Hash text"/,
		/check 2: valid.*agent "Hashing Agent": Hash_text/,
	])
		if (!expected.test(build.stderr))
			throw new Error(`toolbridge build's progress lacks ${expected}:\n${build.stderr}`);
	const built = JSON.parse(readFileSync(builtFile, 'utf8'));

	// 2. Its agent's tools load in `toolbridge tools`.
	const tools = await runCommand(process.execPath, [cli, 'tools', builtFile, '--json'], {
		cwd: folder,
		env,
		timeoutMs: 120_000,
	});
	if (tools.code !== 0) throw new Error(`toolbridge tools exited ${tools.code}:\n${tools.stderr}`);
	// `tools --json`: { agents: [{ agent, type, tools, skipped, problems }] }, every agent's tools.
	const { agents } = JSON.parse(tools.stdout);
	const hashTool = agents
		.flatMap((/** @type {any} */ group) => group.tools)
		.find((/** @type {any} */ entry) => entry.name === 'Hash_text');
	if (!hashTool || !hashTool.parameters?.properties?.text)
		throw new Error(
			`toolbridge tools did not list Hash_text with its "text" argument: ${tools.stdout}`,
		);

	// 3. Import into n8n and execute: n8n's agent calls the built tool through the fake model.
	const agentModel = await scope.startFake(
		(/** @type {any} */ request, /** @type {any} */ fake) => {
			if (request.headers.authorization !== `Bearer ${FAKE_API_KEY}`)
				throw new Error('the credential key did not arrive');
			const names = (request.body.tools ?? []).map(
				(/** @type {any} */ entry) => entry.function?.name,
			);
			if (!names.includes('Hash_text'))
				throw new Error(`the agent's request lacks the built tool: ${JSON.stringify(names)}`);
			// n8n's chat model asks with or without streaming: the reply matches.
			if (request.index === 0)
				return matchStreaming(
					request,
					fake.toolCallReply([{ id: 'call_hash', name: 'Hash_text', arguments: { text: TEXT } }]),
				);
			const result =
				(request.body.messages ?? []).find((/** @type {any} */ message) => message.role === 'tool')
					?.content ?? '';
			return matchStreaming(
				request,
				fake.textReply(
					String(result).includes(SHA256)
						? `The SHA-256 digest is ${SHA256}.`
						: `No digest in: ${result}`,
				),
			);
		},
	);
	const n8n = await scope.run.cliN8n();
	const credential = openRouterCredential(`cred-${scope.id}`.slice(0, 21), agentModel.baseUrl);
	await n8n.importCredentials([credential]);
	// What a user does after importing: pick a credential for the node that needs one.
	for (const needed of built.nodes.filter(
		(/** @type {any} */ entry) => entry.type === '@n8n/n8n-nodes-langchain.lmChatOpenRouter',
	))
		needed.credentials = { openRouterApi: { id: credential.id, name: credential.name } };
	const id = await n8n.importWorkflow(built);
	const run = await n8n.execute(id);
	agentModel.assertNoFailures(); // a request the fake refused explains a failed run best
	if (!run.ok)
		throw new Error(
			`n8n execute failed: ${run.result ? runError(run.result) : '(no output)'} (log ${run.logPath}); the agent's model got ${agentModel.requests.length} request(s): ${JSON.stringify(agentModel.requests.map((/** @type {any} */ request) => ({ path: request.path, stream: request.body?.stream, messages: request.body?.messages?.length, tools: request.body?.tools?.length })))}`,
		);
	const [answer] = nodeOutput(run.result, 'Hashing Agent');
	if (!String(answer?.output).includes(SHA256))
		throw new Error(`the agent's answer lacks the digest: ${JSON.stringify(answer)}`);
	if (!runDataOf(run.result)['Hash text']?.length)
		throw new Error("the built tool 'Hash text' did not run as a node");
	scope.note(
		`built in 2 checks (${built.nodes.length} nodes, laid out, id ${built.id}); toolbridge tools lists Hash_text; n8n imported and executed it: the agent called Hash_text and answered ${SHA256.slice(0, 12)}…`,
	);
}
