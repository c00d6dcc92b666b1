import type {
	ICredentialDataDecryptedObject,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';
import type { StandaloneCredentialsHelper } from './standalone-credentials-helper';

/** Names of fields and headers whose values are credentials: `Authorization`, `X-Api-Key`, `api-key`, `Cookie`, `accessToken` … */
const credentialName =
	/authorization|cookie|api[-_]?key|token|secret|passw|signature|private|session/i;

/**
 * The values of a credential record that are secrets, by its credential type's properties:
 * password fields (`typeOptions.password`), hidden fields that differ from their default
 * (tokens a type fills in: `oauthTokenData`, a session token), every string of a JSON field
 * (custom auth); for fields the type does not declare, or a type that is not installed,
 * fields named like a credential (`apiKey`, `token`, `password` …). With `user` and
 * `password`, also their Basic-auth form. Not secrets: URLs, user names, header names.
 */
export function credentialSecretValues(
	record: ICredentialDataDecryptedObject,
	properties?: readonly INodeProperties[],
): string[] {
	const secrets: string[] = [];
	for (const [name, value] of Object.entries(record)) {
		const property = properties?.find((candidate) => candidate.name === name);
		let secret: boolean;
		if (!property) secret = credentialName.test(name);
		else if (property.type === 'json') secret = true;
		else if (property.type === 'hidden')
			secret = JSON.stringify(value) !== JSON.stringify(property.default);
		else secret = property.typeOptions?.password === true;
		if (secret)
			secrets.push(...stringLeaves(property?.type === 'json' ? jsonFieldValues(value) : value));
	}
	const { user, password } = record;
	if (typeof user === 'string' && typeof password === 'string' && password !== '')
		secrets.push(Buffer.from(`${user}:${password}`).toString('base64'));
	return secrets;
}

/**
 * Values written as plain text in a node's parameters for headers named like credentials:
 * `{ name: 'Authorization', value: 'Bearer …' }` in HTTP Request's header parameters, or a
 * key of its JSON headers. Expressions (`=…`) are left out: their value is not known here.
 */
export function credentialHeaderValues(parameters: INodeParameters): string[] {
	const secrets: string[] = [];
	const visit = (value: unknown, key: string, depth: number): void => {
		if (key === 'jsonHeaders' && isLiteral(value)) {
			const headers = parseJson(value);
			if (typeof headers !== 'object' || headers === null) return;
			for (const [name, headerValue] of Object.entries(headers))
				if (credentialName.test(name) && isLiteral(headerValue)) secrets.push(headerValue);
			return;
		}
		if (typeof value !== 'object' || value === null || depth > 32) return;
		const entry = value as { name?: unknown; value?: unknown };
		if (typeof entry.name === 'string' && credentialName.test(entry.name) && isLiteral(entry.value))
			secrets.push(entry.value);
		for (const [childKey, child] of Object.entries(value)) visit(child, childKey, depth + 1);
	};
	visit(parameters, '', 0);
	return secrets;
}

function isLiteral(value: unknown): value is string {
	return typeof value === 'string' && value !== '' && !value.startsWith('=');
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** A JSON field's text and, when it parses, its contents. */
function jsonFieldValues(value: unknown): unknown {
	return typeof value === 'string' ? [value, parseJson(value)] : value;
}

/** Fields of an OAuth2 token answer (`oauthTokenData`) that describe the token rather than hold it: `Bearer` is no secret. */
const tokenDescriptionFields = new Set([
	'token_type',
	'scope',
	'expires_in',
	'expires_at',
	'n8n_expires_at',
]);

function stringLeaves(value: unknown, depth = 0): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value !== 'object' || value === null || depth > 32) return [];
	return Object.entries(value).flatMap(([key, entry]) =>
		tokenDescriptionFields.has(key) ? [] : stringLeaves(entry, depth + 1),
	);
}

/** The properties of a credential type (inherited ones included); undefined when no installed package defines it. */
export function credentialProperties(
	credentialsHelper: Pick<StandaloneCredentialsHelper, 'getCredentialsProperties'>,
	type: string,
): INodeProperties[] | undefined {
	try {
		return credentialsHelper.getCredentialsProperties(type);
	} catch {
		return undefined;
	}
}
