import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
	resolve: {
		// n8n-workflow ships an ESM build beside its CJS one. n8n-core (CJS) requires the
		// CJS build; tests must get the very same module instance (error classes,
		// singletons), so every import of it resolves to the CJS entry.
		alias: [
			{ find: /^n8n-workflow$/, replacement: require.resolve('n8n-workflow') },
			{ find: /^n8n-workflow\/common$/, replacement: require.resolve('n8n-workflow/common') },
			// packages/n8n-toolbridge imports the root package by name: test it against the sources.
			{ find: /^n8n-nodes-toolbridge$/, replacement: resolve(__dirname, 'src/index.ts') },
			{
				find: /^n8n-nodes-toolbridge\/dist\/nodes\/(.*)$/,
				replacement: `${resolve(__dirname, 'nodes')}/$1`,
			},
		],
	},
	test: {
		include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
		// `*.slow.test.ts` (a real Postgres in WebAssembly …) run in `npm run test:slow`.
		exclude: ['test/e2e/**', 'node_modules/**', '**/*.slow.test.ts'],
		testTimeout: 30_000,
		pool: 'forks',
	},
});
