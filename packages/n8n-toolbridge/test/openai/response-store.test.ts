import { inProcessConversationStore } from 'n8n-nodes-toolbridge';
import { describe, expect, it } from 'vitest';
import { ResponseStore } from '../../src/openai/response-store';

const conversation = (text: string) => [{ role: 'user' as const, content: text }];

describe('ResponseStore', () => {
	it('keeps a response conversation and its response object in the conversation store', async () => {
		const backing = inProcessConversationStore();
		const store = new ResponseStore(backing);
		const response = { id: 'a', object: 'response', output_text: 'hi' };
		await store.set('a', conversation('q'), response);
		expect(await store.get('a')).toEqual(conversation('q'));
		expect(await store.response('a')).toEqual(response);
		// Another server on the same backing store sees it (what --store shares between replicas).
		expect(await new ResponseStore(backing).get('a')).toEqual(conversation('q'));
		expect(await store.delete('a')).toBe(true);
		expect([await store.response('a'), await store.delete('a')]).toEqual([undefined, false]);
	});

	it("follows the backing store's bounds: past maxEntries the least recently used is gone", async () => {
		const store = new ResponseStore(inProcessConversationStore({ maxEntries: 2 }));
		await store.set('a', conversation('a'));
		await store.set('b', conversation('b'));
		expect(await store.get('a')).toEqual(conversation('a'));
		await store.set('c', conversation('c'));
		expect(await store.get('b')).toBeUndefined();
		expect(await store.get('c')).toEqual(conversation('c'));
	});

	it('a conversation is kept apart from responses, and its lock is held by one turn at a time', async () => {
		const store = new ResponseStore(inProcessConversationStore());
		expect(await store.conversation('c1')).toEqual([]);
		await store.setConversation('c1', conversation('first'));
		expect(await store.conversation('c1')).toEqual(conversation('first'));
		expect(await store.get('c1')).toBeUndefined();
		const release = await store.lockConversation('c1', 60_000);
		expect(release).toBeTypeOf('function');
		expect(await store.lockConversation('c1', 60_000)).toBeUndefined();
		await release?.();
		expect(await store.lockConversation('c1', 60_000)).toBeTypeOf('function');
	});
});
