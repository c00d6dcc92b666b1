import { openWorkflowSession, StandaloneHost } from 'n8n-nodes-toolbridge';
import { assertSafeBinding, parseListenAddress } from '../../http/listen-address';
import { mcpToolFromAgentTool, type McpTool } from '../../mcp/mcp-tool';
import { workflowAgentMcpTool } from '../../mcp/workflow-agent-tool';
import { privateNetworkGuard } from '../../network/private-network-guard';
import { EXIT, type CliCommand } from '../cli-command';
import {
	connectionFrom,
	connectionOptions,
	connectionOptionsHelp,
	hostOptionsFrom,
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
import { UsageError } from '../usage-error';
import { builderOptionHelp, builderToolsFor } from './mcp-builder';

/** `toolbridge mcp <workflow.json>`: the workflow's tools as an MCP server (stdio, or Streamable HTTP). */
export const mcpCommand: CliCommand = {
	name: 'mcp',
	summary: "serve a workflow's tools over MCP (stdio, or Streamable HTTP with --http)",
	help: `Usage: toolbridge mcp <workflow.json> [--http [HOST:]PORT] [--token T] [--expose-agent]
       toolbridge mcp --builder [<workflow.json>] [--http [HOST:]PORT] [--model M] …

An MCP server (Model Context Protocol) offering the tools of the workflow's agent — every
node on its ai_tool input — to Claude Desktop, Cursor, VS Code or any MCP client. tools/list
gives each tool's JSON Schema from its $fromAI markers; tools/call runs the real n8n node
and returns what the model would read (text, plus structuredContent when it is JSON). Bad
arguments and node failures are isError results. A cancelled call stops its node.

By default the protocol runs over stdin/stdout (what desktop clients start); logs go to
stderr. --http serves Streamable HTTP at http://HOST:PORT/mcp instead, on 127.0.0.1 unless
HOST says otherwise (a non-loopback HOST needs --token).

Options:
  --http [HOST:]PORT   serve Streamable HTTP at /mcp (PORT 0: any free port)
${serverOptionsHelp}
  --expose-agent       also offer the agent itself as a tool (argument "prompt"): a call
                       runs the whole loop against its model (needs a model key)
${builderOptionHelp}
${privateNetworkHelp}
${connectionOptionsHelp}
${workflowOptionsHelp.replace(/\n {2}--json[^\n]*/, '')}`,
	options: {
		...workflowOptions,
		...connectionOptions,
		...serverOptions,
		http: { type: 'string' },
		'expose-agent': { type: 'boolean' },
		builder: { type: 'boolean' },
	},
	async run({ positionals, values, io }) {
		if (positionals.length > 1 || (positionals.length === 0 && !values.builder))
			throw new UsageError(
				'Expected exactly one workflow file: toolbridge mcp <workflow.json> (or --builder)',
			);
		const token = tokenFrom(values, io.env);
		const address =
			values.http === undefined ? undefined : parseListenAddress(values.http as string);
		if (address) assertSafeBinding(address, token, 'toolbridge mcp --http 127.0.0.1:PORT');
		else if (values.token !== undefined)
			throw new UsageError('--token only applies with --http (stdio has no network listener).');
		// stdout is the protocol: a node that logs must not corrupt it.
		if (!address) redirectConsoleToStderr();

		const log = (line: string) => io.stderr(`toolbridge mcp: ${line}\n`);
		const served =
			positionals.length === 1
				? await workflowMcpTools(positionals[0], values, io.env)
				: {
						tools: [],
						name: 'toolbridge: workflow builder',
						instructions: '',
						summary: 'the workflow builder',
					};
		// --builder: the workflow builder's tools (src/builder), beside a workflow's or alone.
		if (values.builder) {
			const hostOptions = hostOptionsFrom(values, io.env);
			const host = served.host ?? (await StandaloneHost.create(hostOptions));
			served.tools.push(
				...(await builderToolsFor(values, io.env, host, hostOptions.packageDirs, log)),
			);
			served.instructions += `${served.instructions ? ' ' : ''}Build n8n workflows: search_nodes, get_nodes, then validate_workflow your SDK code (or build_workflow).`;
			if (positionals.length === 1) served.summary += ' and the workflow builder';
		}
		const { tools } = served;
		// The MCP SDK loads only for this command.
		const { createMcpServer } = await import('../../mcp/create-mcp-server');
		const options = { tools, name: served.name, instructions: served.instructions, log };
		const summary = `${tools.length} tool${tools.length === 1 ? '' : 's'} of ${served.summary} (${tools.map((tool) => tool.name).join(', ')})`;
		if (!address) {
			log(`serving ${summary} over stdio`);
			const { serveMcpStdio } = await import('../../mcp/serve-mcp-stdio');
			await serveMcpStdio(createMcpServer(options));
			exitSoonAfterShutdown(EXIT.ok);
			return EXIT.ok;
		}
		const { serveMcpHttp } = await import('../../mcp/serve-mcp-http');
		const server = await serveMcpHttp({
			address,
			token,
			allowedOrigins: values['allow-origin'] as string[] | undefined,
			maxConcurrency: maxConcurrencyFrom(values, 8),
			createServer: () => createMcpServer(options),
		});
		log(`serving ${summary} at ${server.url}/mcp${token ? ' (bearer token required)' : ''}`);
		const signal = await untilShutdown();
		log(`${signal}: stopping`);
		await server.close();
		exitSoonAfterShutdown(EXIT.ok);
		return EXIT.ok;
	},
};

/** The tools of a workflow's agent (and the agent itself with --expose-agent), for `toolbridge mcp`. */
async function workflowMcpTools(
	file: string,
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
): Promise<{
	tools: McpTool[];
	name: string;
	instructions: string;
	summary: string;
	host?: StandaloneHost;
}> {
	const { model, ...connection } = connectionFrom(values, env);
	// Clients read what the model would: credentials redacted, long text cut, 120 s per call.
	const session = await openWorkflowSession(file, {
		...hostOptionsFrom(values, env),
		...connection,
		model,
		guard: privateNetworkGuard({
			allowPrivateNetwork: values['allow-private-network'] === true,
		}),
	});
	const { workflow } = session;
	const agentNode = session.agentNode!;
	const tools: McpTool[] = session.tools.map(mcpToolFromAgentTool);
	if (values['expose-agent']) {
		tools.push(
			workflowAgentMcpTool(session, agentNode.name, {
				takenNames: new Set(tools.map((tool) => tool.name)),
			}),
		);
	}
	return {
		tools,
		name: `toolbridge: ${workflow.name ?? agentNode.name}`,
		instructions: `Tools of the n8n workflow "${workflow.name ?? ''}" (agent "${agentNode.name}"); each runs a real n8n node.`,
		summary: `agent "${agentNode.name}"`,
		host: session.host,
	};
}

function redirectConsoleToStderr(): void {
	const toStderr = (...args: unknown[]) => console.error(...args);
	console.log = toStderr;
	console.info = toStderr;
	console.debug = toStderr;
}
