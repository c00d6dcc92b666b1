import {
	openWorkflowSession,
	readWorkflowInput,
	selectAgent,
	StandaloneHost,
	type OpenedWorkflowSession,
} from 'n8n-nodes-toolbridge';
import { assertSafeBinding, parseListenAddress } from '../../http/listen-address';
import { builderServerDescription, workflowServerDescription } from '../../mcp/mcp-description';
import { mcpToolFromAgentTool, type McpTool } from '../../mcp/mcp-tool';
import { startedStdioEarlyReader } from '../../mcp/stdio-early-reader';
import { toolAnnotations, annotationsFromNotes } from '../../mcp/tool-annotations';
import { workflowAgentMcpTool } from '../../mcp/workflow-agent-tool';
import { privateNetworkGuard } from '../../network/private-network-guard';
import { EXIT, type CliCommand } from '../cli-command';
import {
	connectionFrom,
	connectionOptionsHelp,
	hostOptionsFrom,
	skippedToolsText,
	workflowOptionsHelp,
} from '../host-options';
import { mcpOptions } from '../option-specs';
import {
	maxConcurrencyFrom,
	privateNetworkHelp,
	serverOptionsHelp,
	exitSoonAfterShutdown,
	tokenFrom,
	untilShutdown,
} from '../server-options';
import { conversationStoreFrom, storeOptionHelp } from '../store-options';
import { UsageError } from '../../errors/usage-error';
import { builderOptionHelp, builderToolsFor } from './mcp-builder';

/** `toolbridge mcp <workflow.json>`: the workflow's tools as an MCP server (stdio, or Streamable HTTP). */
export const mcpCommand: CliCommand = {
	name: 'mcp',
	summary: "serve a workflow's tools over MCP (stdio, or Streamable HTTP with --http)",
	help: `Usage: toolbridge mcp <workflow.json> [--http [HOST:]PORT] [--token T] [--expose-agent]
       toolbridge mcp --builder [<workflow.json>] [--http [HOST:]PORT] [--model M] …

An MCP server (Model Context Protocol) offering the tools of the workflow's agent — every
node on its ai_tool input — to Claude Desktop, Cursor, VS Code or any MCP client, speaking
MCP 2026-07-28 and the 2025 revisions on the same endpoint. tools/list gives each tool's
JSON Schema (from its $fromAI markers, or what an n8n tool sub-node such as the Calculator
supplies) and hints (read-only, destructive…) from the node's operation; tools/call runs the real n8n node and returns what the model would read (text,
plus structuredContent when it is JSON). Bad arguments and node failures are isError
results. A cancelled call stops its node. Tools behind an n8n human-review node
(…HitlTool) ask the client's user to approve each call (elicitation), or are refused.

By default the protocol runs over stdin/stdout (what desktop clients start); logs go to
stderr. --http serves Streamable HTTP at http://HOST:PORT/mcp instead, stateless (any
replica can answer any request), on 127.0.0.1 unless HOST says otherwise (a non-loopback
HOST needs --token). GET /healthz answers 503 until the tools are loaded, then 200.

Options:
  --http [HOST:]PORT   serve Streamable HTTP at /mcp (PORT 0: any free port)
${serverOptionsHelp}
  --expose-agent       also offer the agent itself as a tool (argument "prompt"): a call
                       runs the whole loop against its model (needs a model key); its
                       optional "session" argument continues that conversation in the
                       agent's memory sub-node
${storeOptionHelp}
${builderOptionHelp}
${privateNetworkHelp}
${connectionOptionsHelp}
${workflowOptionsHelp.replace(/\n {2}--json[^\n]*/, '')}`,
	options: mcpOptions,
	async run({ positionals, values, io }) {
		const builder = values.builder === true;
		if (positionals.length > 1 || (positionals.length === 0 && !builder))
			throw new UsageError(
				'Expected exactly one workflow file: toolbridge mcp <workflow.json> (or --builder)',
			);
		const token = tokenFrom(values, io.env);
		const address =
			values.http === undefined ? undefined : parseListenAddress(values.http as string);
		if (address) assertSafeBinding(address, token, 'toolbridge mcp --http 127.0.0.1:PORT');
		else if (values.token !== undefined)
			throw new UsageError('--token only applies with --http (stdio has no network listener).');
		const log = (line: string) => io.stderr(`toolbridge mcp: ${line}\n`);

		// What the server says about itself needs only the workflow's name: the protocol opens
		// at once, tools/list and tools/call wait while n8n's nodes load.
		const workflow = positionals.length === 1 ? readWorkflowInput(positionals[0]) : undefined;
		const agentName = values.agent as string | undefined;
		if (workflow) selectAgent(workflow, agentName);
		const description = workflow
			? workflowServerDescription(workflow.name, agentName)
			: builderServerDescription();
		let loaded: (tools: McpTool[]) => void = () => undefined;
		let failed: (error: unknown) => void = () => undefined;
		const tools = new Promise<McpTool[]>((resolve, reject) => {
			loaded = resolve;
			failed = reject;
		});
		// A failed load is reported by `load` (and over HTTP answered per request).
		tools.catch(() => undefined);
		// The MCP SDK loads only for this command (over stdio: after the tools, see below).
		const serverFactory = async () => {
			const { mcpServerFactory } = await import('../../mcp/create-mcp-server');
			return mcpServerFactory({
				tools,
				name: description.name,
				instructions: description.instructions,
				log,
				// A call's node log lines reach its client (notifications/message) redacted.
				redactLogLine: (text: string) => (session ? session.redactor.text(text) : text),
			});
		};
		// What the session's tool sub-nodes open (an MCP client, a database pool) closes at shutdown.
		let session: OpenedWorkflowSession | undefined;
		const load = async (): Promise<string> => {
			try {
				const hostOptions = hostOptionsFrom(values, io.env, io.stderr);
				session = workflow
					? await openWorkflowSession(workflow, {
							...hostOptions,
							...connectionFrom(values, io.env),
							conversationStore: await conversationStoreFrom(values),
							guard: privateNetworkGuard({
								allowPrivateNetwork: values['allow-private-network'] === true,
							}),
						})
					: undefined;
				if (session && session.unavailable.length > 0)
					io.stderr(skippedToolsText(session.unavailable));
				const served = session ? workflowMcpTools(session, values['expose-agent'] === true) : [];
				// --builder: the workflow builder's tools (src/builder), beside a workflow's or alone.
				if (builder) {
					const host = session?.host ?? (await StandaloneHost.create(hostOptions));
					served.push(
						...(await builderToolsFor(values, io.env, host, hostOptions.packageDirs, log)),
					);
				}
				loaded(served);
				const of = session
					? `agent "${session.agentNode!.name}"${builder ? ' and the workflow builder' : ''}`
					: 'the workflow builder';
				return `${served.length} tool${served.length === 1 ? '' : 's'} of ${of} (${served.map((tool) => tool.name).join(', ')})`;
			} catch (error) {
				failed(error);
				throw error;
			}
		};

		if (!address) {
			// The early reader has answered the opening; the tools load first, so the client's
			// first tools/list is answered by hand at once, and the SDK (~140 ms on Node 20)
			// loads after, while the client reads the list.
			const early = startedStdioEarlyReader();
			let summary: string;
			try {
				summary = await load();
			} catch (error) {
				early?.stop();
				throw error;
			}
			early?.answerToolsList(await tools);
			const { serveMcpStdio } = await import('../../mcp/serve-mcp-stdio');
			const connection = serveMcpStdio({
				factory: await serverFactory(),
				description,
				log,
				// The early reader already writes to the CLI's reserved stdout; without one, so does this.
				streams: early
					? undefined
					: { stdin: process.stdin, stdout: io.stdoutStream ?? process.stdout },
			});
			log(`serving ${summary} over stdio`);
			await connection.closed;
			await session?.close();
			exitSoonAfterShutdown(EXIT.ok);
			return EXIT.ok;
		}
		const { serveMcpHttp } = await import('../../mcp/serve-mcp-http');
		const server = await serveMcpHttp({
			address,
			token,
			allowedOrigins: values['allow-origin'] as string[] | undefined,
			maxConcurrency: maxConcurrencyFrom(values, 8),
			factory: await serverFactory(),
			ready: tools,
			log,
		});
		log(`listening at ${server.url}/mcp${token ? ' (bearer token required)' : ''}; loading tools`);
		let summary: string;
		try {
			summary = await load();
		} catch (error) {
			await server.close();
			throw error;
		}
		log(`serving ${summary} at ${server.url}/mcp`);
		const signal = await untilShutdown();
		log(`${signal}: stopping`);
		await server.close();
		await session?.close();
		exitSoonAfterShutdown(EXIT.ok);
		return EXIT.ok;
	},
};

/**
 * The session's tools as MCP tools — titled with their node's name, annotated from the
 * node's operation (and its Notes) — and, with `exposeAgent`, the agent itself.
 */
function workflowMcpTools(session: OpenedWorkflowSession, exposeAgent: boolean): McpTool[] {
	const tools = session.tools.map((tool) => {
		const node = session.workflow.nodes.find((candidate) => candidate.name === tool.sourceNodeName);
		if (!node) return mcpToolFromAgentTool(tool);
		const annotations = tool.nestedAgent
			? { openWorldHint: true, ...annotationsFromNotes(node.notes) }
			: toolAnnotations(node, describeQuietly(session, node));
		return mcpToolFromAgentTool(tool, { title: node.name, annotations });
	});
	if (exposeAgent) {
		const agentName = session.agentNode!.name;
		const agent = workflowAgentMcpTool(session, agentName, {
			takenNames: new Set(tools.map((tool) => tool.name)),
		});
		tools.push({ ...agent, title: agentName, annotations: { openWorldHint: true } });
	}
	return tools;
}

function describeQuietly(
	session: OpenedWorkflowSession,
	node: OpenedWorkflowSession['workflow']['nodes'][number],
) {
	try {
		return session.host.describe(node);
	} catch {
		return undefined;
	}
}
