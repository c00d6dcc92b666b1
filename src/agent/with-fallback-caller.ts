import type { CallModel } from './call-model-step';

/**
 * A model call that tries `fallback` when `primary` fails — n8n's AI Agent "Enable Fallback
 * Model" (`needsFallback`, a second model on its Chat Model input), which wraps each agent step
 * in LangChain's `withFallbacks`: every model call starts on the primary model, and one that
 * throws is made again on the fallback. As LangChain's streaming fallback does, a call only
 * falls back while the primary has streamed nothing (a failure after the first part would show
 * text twice); a call the caller cancelled (its signal aborted) does not fall back.
 *
 * @throws the fallback's error when both fail (the primary's as its `cause`); the primary's
 *   error when it failed after streaming or the caller aborted.
 */
export function withFallbackCaller(primary: CallModel, fallback: CallModel): CallModel {
	const call: CallModel = async (request, options) => {
		let streamed = false;
		const onPart: typeof options.onPart = options.onPart
			? (part) => {
					streamed = true;
					options.onPart!(part);
				}
			: () => {
					streamed = true;
				};
		try {
			return await primary(request, { ...options, onPart });
		} catch (error) {
			if (streamed || options.signal?.aborted) throw error;
			try {
				return await fallback(request, options);
			} catch (fallbackError) {
				if (fallbackError instanceof Error && fallbackError.cause === undefined)
					Object.defineProperty(fallbackError, 'cause', {
						value: error,
						configurable: true,
						writable: true,
					});
				throw fallbackError;
			}
		}
	};
	return primary.server === undefined ? call : Object.assign(call, { server: primary.server });
}
