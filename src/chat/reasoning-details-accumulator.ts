import type { ReasoningDetail } from './types';

interface PendingDetail {
	detail: ReasoningDetail;
	textPieces: string[];
	summaryPieces: string[];
	dataPieces: string[];
}

/**
 * Merges streamed `reasoning_details[]` deltas the way OpenRouter expects them back:
 * deltas with the same `index` and `type` form one entry whose `text` / `summary` /
 * `data` pieces are concatenated; other fields (`signature`, `id`, `format`) keep the
 * latest non-empty value. Entries without an index are kept as they came. Linear time.
 */
export class ReasoningDetailsAccumulator {
	private readonly entries: PendingDetail[] = [];
	private readonly byKey = new Map<string, PendingDetail>();

	/** Adds the `reasoning_details` array of one delta. */
	add(details: readonly ReasoningDetail[]): void {
		for (const delta of details) {
			if (typeof delta !== 'object' || delta === null) continue;
			// A provider's `type` is a string; anything else keys as its JSON-free kind, never via toString().
			const type = typeof delta.type === 'string' ? delta.type : typeof delta.type;
			const key = typeof delta.index === 'number' ? `${delta.index}\u0000${type}` : undefined;
			let entry = key === undefined ? undefined : this.byKey.get(key);
			if (!entry) {
				entry = {
					detail: {} as ReasoningDetail,
					textPieces: [],
					summaryPieces: [],
					dataPieces: [],
				};
				this.entries.push(entry);
				if (key !== undefined) this.byKey.set(key, entry);
			}
			for (const [field, value] of Object.entries(delta)) {
				if (field === 'text' && typeof value === 'string') entry.textPieces.push(value);
				else if (field === 'summary' && typeof value === 'string') entry.summaryPieces.push(value);
				else if (field === 'data' && typeof value === 'string') entry.dataPieces.push(value);
				else if (value !== null && value !== undefined && value !== '') entry.detail[field] = value;
				else if (!Object.hasOwn(entry.detail, field)) entry.detail[field] = value;
			}
		}
	}

	/** The merged details, in first-seen order. */
	finish(): ReasoningDetail[] {
		return this.entries.map(({ detail, textPieces, summaryPieces, dataPieces }) => {
			const merged: ReasoningDetail = { ...detail };
			if (textPieces.length > 0) merged.text = textPieces.join('');
			if (summaryPieces.length > 0) merged.summary = summaryPieces.join('');
			if (dataPieces.length > 0) merged.data = dataPieces.join('');
			return merged;
		});
	}
}

/** The human-readable reasoning text a detail delta carries (`text` or `summary`). */
export function reasoningTextOf(detail: ReasoningDetail): string {
	if (detail.type === 'reasoning.text' && typeof detail.text === 'string') return detail.text;
	if (detail.type === 'reasoning.summary' && typeof detail.summary === 'string')
		return detail.summary;
	return '';
}
