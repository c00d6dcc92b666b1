import { it } from 'vitest';
import { loadWorkflowTools } from '../../src/tools/hosts/standalone/load-workflow-tools';

it('scratch', async () => {
	const { tools, problems } = await loadWorkflowTools('fixtures/workflows/text-tools.json', { packageDirs: ['fixtures/packages/n8n-nodes-toolbridge-fixture'], onBuildError: 'collect' });
	console.log(problems);
	for (const tool of tools) console.log(tool.name, '|', tool.description, '|', JSON.stringify(tool.parameters));
	const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
	const call = async (name: string, args: Record<string, unknown>) => console.log(name, JSON.stringify(await byName[name].invoke(args, { toolCallId: 'x' })));
	await call('Hash_text', { text: 'hello' });
	await call('Format_date', { date: '2024-03-05T10:00:00Z' });
	await call('Make_record', { name: 'Ada', age: '36', profile: { city: 'London', note: '={{ $env.HOME }}' } });
	await call('Make_record', { name: 'Ada', age: 'abc' });
	await call('Text_stats', { text: 'the cat and the hat', word: 'the' });
	await call('Text_stats', { text: '' });
	await call('Calendar_file', { title: 'Meet', start: '2024-03-05T10:00:00Z', end: '2024-03-05T11:00:00Z' });
});
