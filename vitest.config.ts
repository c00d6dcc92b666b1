import { createRequire } from 'node:module';
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
		],
	},
	test: {
		include: ['test/**/*.test.ts'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		testTimeout: 30_000,
		pool: 'forks',
	},
});
