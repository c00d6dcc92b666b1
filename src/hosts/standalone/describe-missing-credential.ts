/** "Node "X" needs credential "Y" (type T): supply it under the key "Y" or "T" …". */
export function describeMissingCredential(
	type: string,
	credentialName: string | null | undefined,
	nodeName?: string,
): string {
	const who = nodeName ? `Node "${nodeName}" needs` : 'A node needs';
	const named = credentialName
		? `credential "${credentialName}" (type ${type})`
		: `a credential of type ${type}`;
	const keys = credentialName ? `"${credentialName}" or "${type}"` : `"${type}"`;
	return `${who} ${named}, which was not supplied. Add it to the credentials JSON file (--credentials) or the TOOLBRIDGE_CREDENTIALS environment variable under the key ${keys}.`;
}
