import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(
	readFileSync(resolve(__dirname, '../../../../package.json'), 'utf8'),
) as Record<string, Record<string, unknown>>;

describe('the package manifest and @n8n/ai-node-sdk', () => {
	// n8n brings its own SDK (on NODE_PATH); a bundled second copy would not be the one n8n's
	// agents check against, and the chat model would fail silently.
	it('the SDK is an optional peer and a dev dependency at exactly the version n8n 2.41.1 ships, never a dependency', () => {
		expect(manifest.peerDependencies['@n8n/ai-node-sdk']).toBe('0.31.1');
		expect(manifest.peerDependenciesMeta['@n8n/ai-node-sdk']).toEqual({ optional: true });
		expect(manifest.devDependencies['@n8n/ai-node-sdk']).toBe('0.31.1');
		expect(manifest.dependencies['@n8n/ai-node-sdk']).toBeUndefined();
		expect(manifest.n8n.aiNodeSdkVersion).toBe(1);
	});

	it('both nodes are registered, and their classes are named after their files', async () => {
		const nodes = manifest.n8n.nodes as string[];
		expect(nodes).toEqual([
			'dist/nodes/AgentOrchestrator/AgentOrchestrator.node.js',
			'dist/nodes/ToolbridgeChatModel/ToolbridgeChatModel.node.js',
		]);
		for (const path of nodes) {
			const className = path.split('/').at(-1)!.replace('.node.js', '');
			const source = (await import(
				resolve(__dirname, '../../../..', path.replace(/^dist\//, '').replace(/\.js$/, '.ts'))
			)) as Record<string, unknown>;
			expect(typeof source[className]).toBe('function');
		}
	});

	it('no source file imports the SDK at run time (type imports only; the loader requires it)', async () => {
		const { execFileSync } = await import('node:child_process');
		const hits = execFileSync('grep', ['-rln', "from '@n8n/ai-node-sdk'", 'src', 'nodes'], {
			cwd: resolve(__dirname, '../../../..'),
		})
			.toString()
			.trim()
			.split('\n');
		for (const file of hits) {
			const text = readFileSync(resolve(__dirname, '../../../..', file), 'utf8');
			expect(text.match(/^import (?!type ).*from '@n8n\/ai-node-sdk'/m), file).toBeNull();
		}
	});
});
