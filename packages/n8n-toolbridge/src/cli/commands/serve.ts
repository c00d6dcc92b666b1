import { openWorkflowSession, readWorkflowInput } from 'n8n-nodes-toolbridge';
import { assertSafeBinding, DEFAULT_HOST } from '../../http/listen-address';
import { privateNetworkGuard } from '../../network/private-network-guard';
import { EXIT, type CliCommand } from '../cli-command';
import {
	connectionFrom,
	connectionOptions,
	connectionOptionsHelp,
	agentsToServe,
	hostOptionsFrom,
	skippedToolsText,
	workflowOptions,
	workflowOptionsHelp,
} from '../host-options';
import {
	maxConcurrencyFrom,
	privateNetworkHelp,
	serverOptions,
	serverOptionsHelp,
	exitSoonAfterShutdown,
	tokenFrom,
	untilShutdown,
} from '../server-options';
import { UsageError } from '../../errors/usage-error';

const DEFAULT_PORT = 8080;

/** `toolbridge serve <workflow.json>`: the workflow's agents behind an OpenAI-compatible API. */
export const serveCommand: CliCommand = {
	name: 'serve',
	summary: "serve a workflow's agents as an OpenAI-compatible API (Chat Completions and Responses)",
	help: `Usage: toolbridge serve <workflow.json> [--port N] [--host H] [--token T] [--model M] [--base-url URL] [--api-key KEY]

An OpenAI-compatible server: any OpenAI client (the openai SDKs, the OpenAI Agents SDK,
chat apps, agent frameworks) talks to the workflow's agents as models. The agent loop and
its tools — the real n8n nodes — run here; the agent's own model is called as "toolbridge
run" calls it.

  GET  /v1/models             one model per agent (its node name)
  POST /v1/chat/completions   stream false or true (chat.completion.chunk events ending in
                              [DONE]; usage in a last chunk with stream_options.include_usage)
  POST /v1/responses          stream false or true (OpenAI's response.* events); the agent's
                              tool calls are mcp_call items (run here, never by the client);
                              previous_response_id continues a response kept in this
                              process's memory (the last 1000, 64 MiB; not with store: false)
  GET  /healthz               {"status":"ok"}, without authentication

The last message (input item) is the prompt, earlier ones are the history; system
messages and "instructions" are ignored (the agent has its own), and so are sampling
options, "include", "reasoning" and "text" (the workflow decides them). Request "tools"
(client-side tools) get 400: the server runs the workflow's tools itself. Text a model
call writes before calling tools is streamed as it comes (Responses: its own message,
phase "commentary"). Streamed text is redacted like the answer (the last characters of
each model call arrive when it ends). A client that disconnects stops its run; a request
body must arrive within 30 s, before the request takes one of --max-concurrency slots.

Options:
  --port N             default ${DEFAULT_PORT} (0: any free port)
  --host H             default ${DEFAULT_HOST}; any other address needs --token
${serverOptionsHelp}
${privateNetworkHelp}
${connectionOptionsHelp}
${workflowOptionsHelp.replace(/\n {2}--json[^\n]*/, '').replace('the agent node, when several nodes have tools connected', 'serve only this agent (default: every top-level agent)')}`,
	options: {
		...workflowOptions,
		...connectionOptions,
		...serverOptions,
		port: { type: 'string' },
		host: { type: 'string' },
	},
	async run({ positionals, values, io }) {
		if (positionals.length !== 1)
			throw new UsageError('Expected exactly one workflow file: toolbridge serve <workflow.json>');
		const port = Number((values.port as string | undefined) ?? DEFAULT_PORT);
		if (!Number.isInteger(port) || port < 0 || port > 65_535)
			throw new UsageError(`--port must be an integer 0–65535, not "${values.port}".`);
		const address = { host: (values.host as string | undefined) ?? DEFAULT_HOST, port };
		const token = tokenFrom(values, io.env);
		assertSafeBinding(address, token, 'toolbridge serve --host 127.0.0.1');

		const workflow = readWorkflowInput(positionals[0]);
		const agents = agentsToServe(workflow, values.agent as string | undefined);
		const reported = new Set<string>();
		const session = await openWorkflowSession(workflow, {
			...hostOptionsFrom(values, io.env, io.stderr),
			...connectionFrom(values, io.env),
			debug: values.debug === true || undefined,
			guard: privateNetworkGuard({
				allowPrivateNetwork: values['allow-private-network'] === true,
			}),
			loadTools: false,
			// Each agent builds its tools per request: report what --skip-unavailable left out once per agent.
			onToolsUnavailable: ({ agentName, tools }) => {
				if (reported.has(agentName)) return;
				reported.add(agentName);
				io.stderr(skippedToolsText(tools));
			},
		});
		const { serveOpenAI } = await import('../../openai/serve-openai');
		const log = (line: string) => io.stderr(`toolbridge serve: ${line}\n`);
		const server = await serveOpenAI({
			address,
			session,
			agents,
			token,
			allowedOrigins: values['allow-origin'] as string[] | undefined,
			maxConcurrency: maxConcurrencyFrom(values, 4),
			log,
		});
		log(
			`serving ${agents.map((agent) => `"${agent}"`).join(', ')} at ${server.url}/v1${token ? ' (bearer token required)' : ''}`,
		);
		const signal = await untilShutdown();
		log(`${signal}: stopping`);
		await server.close();
		exitSoonAfterShutdown(EXIT.ok);
		return EXIT.ok;
	},
};
