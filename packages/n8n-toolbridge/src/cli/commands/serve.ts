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
import { conversationStoreFrom, storeOptionHelp, storeOptions } from '../store-options';

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
                              previous_response_id continues a stored response (not with
                              store: false); "conversation" (an id) continues and extends a
                              server-kept conversation; GET/DELETE /v1/responses/{id}
  GET  /healthz               {"status":"ok"}, without authentication

The last user message (input item) is the user message the agent's model receives,
whatever the agent node's prompt reads (a prompt that wraps {{ $json.chatInput }} keeps
its wrapping); earlier ones are the history. Extension fields of both APIs:
"agent_input" (the item the agent node receives, $json; with it the node's own prompt is
sent, resolved over the item) and "agent_pins" (node name → output, as --pin). System
messages and "instructions" are ignored (the agent has its own), and so are sampling
options, "include", "reasoning" and "text" (the workflow decides them). Request "tools"
(client-side tools) get 400: the server runs the workflow's tools itself. Text a model
call writes before calling tools is streamed as it comes (Responses: its own message,
phase "commentary"). Streamed text is redacted like the answer (the last characters of
each model call arrive when it ends). A client that disconnects stops its run; a request
body must arrive within 30 s, before the request takes one of --max-concurrency slots.

Sessions: an "x-session-id: ID" header (both APIs) continues conversation ID in the
agent's memory sub-node (Simple Memory …). With it, on an agent with memory, the
session's stored history wins: only the last user message of a Chat Completions request
is taken. A second request on a session (or conversation) still answering gets 409
SESSION_BUSY. Responses state and Simple Memory live in --store: replicas given the same
store continue each other's conversations.

Options:
  --port N             default ${DEFAULT_PORT} (0: any free port)
  --host H             default ${DEFAULT_HOST}; any other address needs --token
${serverOptionsHelp}
${storeOptionHelp}
${privateNetworkHelp}
${connectionOptionsHelp}
${workflowOptionsHelp.replace(/\n {2}--json[^\n]*/, '').replace('the agent node, when several nodes have tools connected', 'serve only this agent (default: every top-level agent)')}`,
	options: {
		...workflowOptions,
		...connectionOptions,
		...serverOptions,
		...storeOptions,
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
		const conversationStore = await conversationStoreFrom(values);
		const session = await openWorkflowSession(workflow, {
			conversationStore,
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
			conversationStore,
			log,
		});
		log(
			`serving ${agents.map((agent) => `"${agent}"`).join(', ')} at ${server.url}/v1${token ? ' (bearer token required)' : ''}`,
		);
		const signal = await untilShutdown();
		log(`${signal}: stopping`);
		await server.close();
		await conversationStore.close?.();
		exitSoonAfterShutdown(EXIT.ok);
		return EXIT.ok;
	},
};
