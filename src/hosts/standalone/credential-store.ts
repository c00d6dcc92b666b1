import { readFileSync } from 'node:fs';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { ToolbridgeError } from '../../errors/toolbridge-error';

/**
 * Credential data supplied to the standalone host: keys are the credential's name as the
 * workflow references it (`node.credentials.<type>.name`) or a credential type
 * (`httpHeaderAuth`); values are the plain credential fields.
 */
export type CredentialRecords = Record<string, ICredentialDataDecryptedObject>;

/** Environment variable holding a JSON object of credential records. */
export const CREDENTIALS_ENV = 'TOOLBRIDGE_CREDENTIALS';
/** Environment variable holding the path of a JSON file of credential records. */
export const CREDENTIALS_FILE_ENV = 'TOOLBRIDGE_CREDENTIALS_FILE';

function parseRecords(text: string, origin: string): CredentialRecords {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		// The parser's message may quote the text, which holds secrets: keep only the origin.
		throw new ToolbridgeError(
			'CREDENTIALS_INVALID',
			`Credentials in ${origin} are not valid JSON.`,
		);
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new ToolbridgeError(
			'CREDENTIALS_INVALID',
			`Credentials in ${origin} must be a JSON object keyed by credential name or type.`,
		);
	}
	for (const [key, value] of Object.entries(parsed)) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			throw new ToolbridgeError(
				'CREDENTIALS_INVALID',
				`Credential "${key}" in ${origin} must be an object of credential fields.`,
			);
		}
	}
	return parsed as CredentialRecords;
}

/**
 * Reads credential records from, in rising priority: `TOOLBRIDGE_CREDENTIALS_FILE`,
 * `TOOLBRIDGE_CREDENTIALS` (JSON), the given file, the given records. Error messages name
 * the file or variable, never a value.
 *
 * @throws ToolbridgeError (code CREDENTIALS_INVALID) when a source is not a JSON object of objects.
 */
export function loadCredentialRecords(
	options: { file?: string; records?: CredentialRecords; env?: NodeJS.ProcessEnv } = {},
): CredentialRecords {
	const env = options.env ?? process.env;
	// No prototype: a record named `__proto__` (JSON.parse keeps it as a key) stays an ordinary key.
	const merged = Object.create(null) as CredentialRecords;
	const envFile = env[CREDENTIALS_FILE_ENV];
	if (envFile)
		Object.assign(merged, parseRecords(readFile(envFile), `${CREDENTIALS_FILE_ENV} (${envFile})`));
	const envJson = env[CREDENTIALS_ENV];
	if (envJson) Object.assign(merged, parseRecords(envJson, CREDENTIALS_ENV));
	if (options.file) Object.assign(merged, parseRecords(readFile(options.file), options.file));
	if (options.records) Object.assign(merged, options.records);
	return merged;
}

function readFile(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch (error) {
		throw new ToolbridgeError(
			'CREDENTIALS_INVALID',
			`Cannot read credentials file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
		);
	}
}
