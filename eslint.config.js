// ESLint: typescript-eslint's strict type-checked rules over every TypeScript file, and the React
// hooks rules over the web app. `npm test` runs it with --max-warnings 0.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'web/dist/',
      '.data/',
      '.test-output/',
      'test-results/',
      'playwright-report/',
      'lib/cloud/placeholder-web/',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Numbers and booleans read plainly in messages; objects and unions with undefined still fail.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `() => setOpen(false)` in JSX props and callbacks is the idiom; a void value used elsewhere still fails.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // `const { id: _id, ...rest } = item` is how a copy without a field is written; other unused names still fail.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      // A test reads the element or item it just arranged; if it is missing the test fails on the spot either way.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
);
