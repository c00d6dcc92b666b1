import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/** `npm run test:slow`: the suites too heavy for `npm test` (named `*.slow.test.ts`). */
export default defineConfig({
	...base,
	test: {
		...base.test,
		include: ['test/**/*.slow.test.ts', 'packages/*/test/**/*.slow.test.ts'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		testTimeout: 120_000,
	},
});
