import type * as N8nCore from 'n8n-core';
import type { INode } from 'n8n-workflow';
import { MissingCredentialError } from '../../errors/missing-credential-error';
import { describeMissingCredential } from './describe-missing-credential';

type GetCredentials = (this: { node: INode }, type: string, ...rest: unknown[]) => Promise<unknown>;

/**
 * What n8n-core says when a node asks for a credential the node in the workflow does not
 * reference (before the credentials helper is asked): none of it names the credential's type.
 */
const uncheckedReference =
	/^(Credentials not found|Node does not have any credentials set|Node does not require credentials|Node type "[^"]*" does not have any credentials)/;

let named = false;

/**
 * Makes every credential error of a node run name the node, the credential and its type.
 * n8n-core's `NodeExecutionContext._getCredentials` (behind every context's `getCredentials`:
 * a node's execute, a sub-node's supplyData, a tool's call) refuses a credential the node does
 * not reference with `Credentials not found` or `Node does not have any credentials set`, and
 * our credentials helper knows only the node of the execution data (for a sub-node, its agent):
 * both become a
 * {@link MissingCredentialError} with the node's name, the credential's name (when the node
 * references one) and the type it asked for. Once per process, on the n8n-core the standalone
 * host loaded.
 */
export function nameCredentialErrors(core: typeof N8nCore): void {
	if (named) return;
	named = true;
	let prototype: object | null = core.ExecuteContext.prototype;
	while (prototype && !Object.hasOwn(prototype, '_getCredentials'))
		prototype = Object.getPrototypeOf(prototype) as object | null;
	if (!prototype) return;
	const target = prototype as { _getCredentials: GetCredentials };
	const original = target._getCredentials;
	target._getCredentials = async function (type, ...rest) {
		try {
			return await original.call(this, type, ...rest);
		} catch (error) {
			throw namedCredentialError(error, this.node, type);
		}
	};
}

function namedCredentialError(error: unknown, node: INode, type: string): unknown {
	const credentialName = node.credentials?.[type]?.name ?? '';
	// The helper names the node of the execution data: for a sub-node's supply, its agent.
	if (error instanceof MissingCredentialError) {
		if (error.nodeName === node.name) return error;
		return new MissingCredentialError({
			credentialType: type,
			credentialName,
			nodeName: node.name,
			message: describeMissingCredential(type, credentialName, node.name),
		});
	}
	const message = (error as { message?: unknown } | null)?.message;
	if (typeof message !== 'string' || !uncheckedReference.test(message)) return error;
	return new MissingCredentialError({
		credentialType: type,
		credentialName,
		nodeName: node.name,
		message: `Node "${node.name}" (${node.type}) asked for a credential of type ${type}, which the node does not reference in the workflow (n8n: "${message}"). Select a ${type} credential on the node in n8n and export again, or add "credentials": { "${type}": { "name": "<name>" } } to the node, and supply it under that name or "${type}" (--credentials or TOOLBRIDGE_CREDENTIALS).`,
	});
}
