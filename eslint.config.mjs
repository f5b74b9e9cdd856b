// @ts-check
// ESLint flat config, the set a NestJS project starts with: ESLint's recommended rules everywhere,
// typescript-eslint's type-checked recommended rules on the TypeScript sources (apps/, libs/, test/, bench/), and
// eslint-config-prettier so that no rule argues with Prettier, which owns the formatting (.prettierrc.json).
// No recommended rule is switched off; the choices that differ from the defaults are explained where they are made.
import eslint from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// printWidth of .prettierrc.json: Prettier keeps code within it, max-len below catches what Prettier cannot break.
const printWidth = 140;

export default defineConfig(
  // Generated output and local data, as in .prettierignore (node_modules is ignored by default). docs/client/api.d.ts is
  // written by `npm run client` (openapi-typescript); the example next to it is linted with docs/client/tsconfig.json.
  globalIgnores(['dist/', 'coverage/', 'tmp/', 'data/', '.kafka-mock/', 'docs/client/api.d.ts']),

  {
    // Not the default (a warning): a disable comment that no longer suppresses anything fails the lint, so no
    // stale `eslint-disable` stays behind. One for a rule that does not exist is an error already.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  eslint.configs.recommended,

  // JavaScript files (jest.config.js, bench/*.js, test/support/*.js) are CommonJS scripts run by Node: ESLint's
  // recommended rules only, without type information (they are outside tsconfig.json). The config itself is ESM.
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },

  // TypeScript: the type-checked recommended set, with the types of tsconfig.json (found by the project service,
  // which covers apps/, libs/, test/ and bench/, the specs included).
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },

  // Last among the shared sets: switches off the rules that Prettier's formatting makes pointless or contradicts.
  // It switches max-len off too, which is why max-len is set again after it.
  prettier,

  // Not a default: every if, else, for and while body in braces ('all', the one option that cannot argue with
  // Prettier's line breaks), so that a second statement added to a body cannot fall outside it.
  {
    rules: {
      curly: ['error', 'all'],
    },
  },

  // Not a default: lines no longer than Prettier's width. Prettier breaks code lines but never comments, string
  // or template literals, so those are wrapped by hand; only URLs may run past the width (they cannot be split).
  {
    rules: {
      'max-len': ['error', { code: printWidth, ignoreUrls: true }],
    },
  },
);
