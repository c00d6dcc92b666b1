// @ts-check
/**
 * Issue 6, scenario 5: the package installs as n8n installs community packages
 * (peer/dev deps removed, production deps installed, no second copy of n8n's libraries)
 * and `n8n start` loads its node and credential without errors.
 */
import { packageLoadProblems } from '../lib/n8n-instance.mjs';

/** The node and credential types the package must register. */
const NODE_TYPE = 'n8n-nodes-toolbridge.agentOrchestrator';
const CREDENTIAL_TYPE = 'openAiCompatibleApi';

/**
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function packageLoads(scope) {
	const { n8n, installed } = await scope.newN8n();
	scope.note(
		`installed ${installed.name}@${installed.version} with ${installed.dependencies.length} production deps (${installed.dependencies.join(', ')})`,
	);
	await n8n.start();

	/** @type {any[]} */
	const nodeTypes = await n8n.rest('GET', '/types/nodes.json');
	const ours = nodeTypes.filter((type) => String(type.name).startsWith('n8n-nodes-toolbridge.'));
	const orchestrator = ours.find((type) => type.name === NODE_TYPE);
	if (!orchestrator) {
		throw new Error(
			`n8n did not register ${NODE_TYPE}; package types: ${JSON.stringify(ours.map((type) => type.name))}`,
		);
	}
	/** @type {any[]} */
	const credentialTypes = await n8n.rest('GET', '/types/credentials.json');
	if (!credentialTypes.some((type) => type.name === CREDENTIAL_TYPE))
		throw new Error(`n8n did not register credential ${CREDENTIAL_TYPE}`);

	const problems = packageLoadProblems(n8n.serverLogText(), installed.name);
	if (problems.length > 0)
		throw new Error(`n8n logged problems loading ${installed.name}:\n${problems.join('\n')}`);
	scope.note(
		`n8n registered ${ours.map((type) => type.name).join(', ')} and credential ${CREDENTIAL_TYPE}`,
	);
}
