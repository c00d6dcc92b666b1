import type { ParseArgsConfig } from 'node:util';
import type { LoadWorkflowToolsOptions } from '../tools/hosts/standalone/load-workflow-tools';

/** Options every workflow command shares. */
export const workflowOptions = {
	agent: { type: 'string' },
	package: { type: 'string', multiple: true },
	credentials: { type: 'string' },
	json: { type: 'boolean' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** Help lines for {@link workflowOptions}. */
export const workflowOptionsHelp = `  --agent NAME         the agent node, when several nodes have tools connected
  --package DIR        also load node types from this package folder (repeatable);
                       TOOLBRIDGE_PACKAGE_DIRS adds more (path-list)
  --credentials FILE   JSON object of credentials keyed by credential name or type;
                       TOOLBRIDGE_CREDENTIALS (JSON) / TOOLBRIDGE_CREDENTIALS_FILE also work
  --json               machine-readable output
  --debug              show stack traces`;

/** Turns the parsed flags into options of `loadWorkflowTools`. */
export function hostOptionsFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv): LoadWorkflowToolsOptions {
	const fromEnv = (env.TOOLBRIDGE_PACKAGE_DIRS ?? '').split(process.platform === 'win32' ? ';' : ':').filter(Boolean);
	return {
		agent: values.agent as string | undefined,
		packageDirs: [...((values.package as string[] | undefined) ?? []), ...fromEnv],
		credentialsFile: values.credentials as string | undefined,
		env,
	};
}
