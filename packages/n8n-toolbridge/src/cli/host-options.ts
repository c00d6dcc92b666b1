import type { LoadWorkflowToolsOptions } from 'n8n-nodes-toolbridge';
import { ownNodeTypes } from './own-node-types';
import { connectionOptions, workflowOptions } from './option-specs';

export { connectionOptions, workflowOptions };

/** Help lines for {@link workflowOptions}. */
export const workflowOptionsHelp = `  --agent NAME         the agent node, when several nodes have tools connected
  --package DIR        also load node types from this package folder (repeatable);
                       TOOLBRIDGE_PACKAGE_DIRS adds more (path-list)
  --credentials FILE   JSON object of credentials keyed by credential name or type;
                       TOOLBRIDGE_CREDENTIALS (JSON) / TOOLBRIDGE_CREDENTIALS_FILE also work
  --json               machine-readable output
  --debug              show stack traces`;

/** Turns the parsed flags into options of `loadWorkflowTools`. */
export function hostOptionsFrom(
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
): LoadWorkflowToolsOptions {
	const fromEnv = (env.TOOLBRIDGE_PACKAGE_DIRS ?? '')
		.split(process.platform === 'win32' ? ';' : ':')
		.filter(Boolean);
	return {
		agent: values.agent as string | undefined,
		packageDirs: [...((values.package as string[] | undefined) ?? []), ...fromEnv],
		credentialsFile: values.credentials as string | undefined,
		env,
		nodeTypes: ownNodeTypes,
	};
}

/** Help lines for {@link connectionOptions}. */
export const connectionOptionsHelp = `  --model M            use this model instead of the workflow's (the outermost agent's)
  --base-url URL       the Chat Completions server, for every agent; else the url of the
                       agent's credential (--credentials), OPENAI_BASE_URL,
                       OPENROUTER_BASE_URL, then OpenRouter
  --api-key KEY        else the agent's credential (--credentials), else OPENROUTER_API_KEY;
                       not needed for a server on localhost`;

/** The connection flags as `runWorkflowAgent` / session options. */
export function connectionFrom(
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
): { model?: string; baseUrl?: string; apiKey?: string; env: NodeJS.ProcessEnv } {
	return {
		model: values.model as string | undefined,
		baseUrl: values['base-url'] as string | undefined,
		apiKey: values['api-key'] as string | undefined,
		env,
	};
}
