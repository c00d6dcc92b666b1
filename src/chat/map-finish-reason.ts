import type { FinishReason } from './types';

/** Wire `finish_reason` → {@link FinishReason}. Unknown values are `other`. */
export function mapFinishReason(raw: string): FinishReason {
	switch (raw) {
		case 'stop':
		case 'end_turn':
			return 'stop';
		case 'length':
		case 'max_tokens':
			return 'length';
		case 'tool_calls':
		case 'function_call':
		case 'tool_use':
			return 'tool-calls';
		case 'content_filter':
			return 'content-filter';
		case 'error':
			return 'error';
		default:
			return 'other';
	}
}
