import { describe, expect, it } from 'vitest';
import { ResponseStore } from '../../src/openai/response-store';

const conversation = (text: string) => [{ role: 'user' as const, content: text }];
const bytesOf = (text: string) => JSON.stringify(conversation(text)).length;

describe('ResponseStore', () => {
	it('keeps at most maxEntries, the least recently used out first', () => {
		const store = new ResponseStore({ maxEntries: 2 });
		store.set('a', conversation('a'));
		store.set('b', conversation('b'));
		expect(store.get('a')).toEqual(conversation('a')); // a is now the most recent
		store.set('c', conversation('c'));
		expect(store.get('b')).toBeUndefined();
		expect(store.get('a')).toEqual(conversation('a'));
		expect(store.get('c')).toEqual(conversation('c'));
		expect(store.size.entries).toBe(2);
	});

	it('keeps at most maxBytes of conversation; one larger than the budget is not kept', () => {
		const store = new ResponseStore({ maxBytes: bytesOf('x'.repeat(100)) * 2 });
		store.set('a', conversation('x'.repeat(100)));
		store.set('b', conversation('y'.repeat(100)));
		expect(store.size).toEqual({ entries: 2, bytes: bytesOf('x'.repeat(100)) * 2 });
		store.set('c', conversation('z'.repeat(100)));
		expect([store.get('a'), store.get('b') !== undefined, store.get('c') !== undefined]).toEqual([
			undefined,
			true,
			true,
		]);
		store.set('huge', conversation('h'.repeat(1000)));
		expect(store.get('huge')).toBeUndefined();
		expect(store.size.entries).toBe(2);
	});

	it('replacing or deleting an id gives its bytes back', () => {
		const store = new ResponseStore();
		store.set('a', conversation('first'));
		store.set('a', conversation('second, longer'));
		expect(store.size).toEqual({ entries: 1, bytes: bytesOf('second, longer') });
		store.delete('a');
		expect(store.size).toEqual({ entries: 0, bytes: 0 });
	});

	it('keeps the response object beside the conversation, counted in the bytes', () => {
		const store = new ResponseStore();
		const response = { id: 'a', object: 'response', output_text: 'hi' };
		store.set('a', conversation('q'), response);
		expect(store.response('a')).toEqual(response);
		expect(store.size.bytes).toBe(bytesOf('q') + JSON.stringify(response).length);
		expect(store.delete('a')).toBe(true);
		expect([store.response('a'), store.delete('a')]).toEqual([undefined, false]);
	});
});
