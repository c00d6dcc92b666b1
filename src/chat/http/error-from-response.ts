import { createApiCallError, type ApiCallError } from '../../errors/api-call-error';
import type { Redactor } from '../redactor';
import { parseRetryAfter } from '../retry-policy';

/** The body kept on the error is cut to this many characters. */
const maxResponseBodyLength = 4096;

/**
 * The error for a response with an HTTP error status: reads the body (`redactor`'s secrets replaced),
 * takes the provider's message and code from it (OpenAI `{ error: { message, code } }`,
 * OpenRouter's `metadata.provider_name`, a plain `{ message }`, or the text itself) and the
 * `Retry-After` header, and lets {@link createApiCallError} pick the class for the status.
 */
export async function errorFromResponse(
	response: Response,
	url: string,
	redactor: Redactor,
): Promise<ApiCallError> {
	let text = '';
	try {
		text = redactor.text(await response.text());
	} catch {
		// The body is only for the message; the status alone still makes a useful error.
	}
	let providerMessage: string | undefined;
	let providerCode: string | number | undefined;
	try {
		const parsed = JSON.parse(text) as {
			error?:
				{ message?: unknown; code?: unknown; metadata?: { provider_name?: unknown } } | string;
			message?: unknown;
		};
		const errorField = parsed.error;
		if (typeof errorField === 'string') providerMessage = errorField;
		else if (errorField && typeof errorField === 'object') {
			if (typeof errorField.message === 'string') providerMessage = errorField.message;
			if (typeof errorField.code === 'string' || typeof errorField.code === 'number')
				providerCode = errorField.code;
			const provider = errorField.metadata?.provider_name;
			if (typeof provider === 'string' && providerMessage)
				providerMessage += ` (provider: ${provider})`;
		} else if (typeof parsed.message === 'string') providerMessage = parsed.message;
	} catch {
		if (text.trim() !== '') providerMessage = text.trim().slice(0, 300);
	}
	return createApiCallError(
		{
			status: response.status,
			providerCode,
			responseBody:
				text.length > maxResponseBodyLength ? `${text.slice(0, maxResponseBodyLength)}…` : text,
			retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
			url,
		},
		providerMessage,
	);
}
