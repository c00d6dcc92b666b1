import tseslint from 'typescript-eslint';
import { configs as n8nCommunity } from '@n8n/eslint-plugin-community-nodes';

export default tseslint.config(
	{
		ignores: ['dist/**', '**/dist/**', 'node_modules/**', 'coverage/**', '.e2e/**', 'gulpfile.js'],
	},
	...tseslint.configs.recommended,
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		...n8nCommunity.recommended,
		rules: {
			...n8nCommunity.recommended.rules,
			// This package runs the tool loop itself and executes other nodes: it needs
			// n8n-core and @langchain/core (as optional peers resolved from n8n's own copy)
			// and a small parser (jsep). The verified-node restrictions on imports and
			// runtime dependencies do not fit a package of this kind.
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-runtime-dependencies': 'off',
			// n8n's libraries are optional peers pinned to the versions n8n 2.41.1 ships
			// (a second zod or @langchain/core copy silently breaks tool schemas in n8n).
			'@n8n/community-nodes/valid-peer-dependencies': 'off',
		},
	},
	{ files: ['package.json'], rules: { '@typescript-eslint/no-unused-expressions': 'off' } },
	// The toolbridge launcher is plain CommonJS run before any build step (it requires dist/).
	{
		files: ['packages/*/bin/*.js'],
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
);
