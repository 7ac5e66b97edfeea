import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The web app talks to the server only through the contract package and its own api client.
const webServerImports = {
  group: [
    '@mirror/server',
    '@mirror/engine',
    '@mirror/customize',
    '**/apps/server/**',
    '**/packages/engine/**',
    '**/packages/customize/**',
  ],
  message: 'The web app reaches the server only through @mirror/contract and its api client.',
};

// Web feature boundaries (docs/decisions/009-web-feature-boundaries.md): a feature imports only
// from itself and from the shared folders of apps/web/src, never from another feature. Shared
// code (components, lib, api, hooks) never imports a feature; only app/ composes them.
const WEB_SHARED_FOLDERS = [
  'components',
  'lib',
  'api',
  'hooks',
  'config',
  'locales',
  'test',
  'styles',
];
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Folder levels below a feature's root that get their own relative-path rule. */
const FEATURE_DEPTHS = [0, 1, 2, 3, 4];

/** A feature file `depth` folders below `features/<feature>/`: which imports leave the feature. */
function featureBoundary(feature, depth) {
  const name = escapeRegex(feature);
  const up = (levels) => `^(?:\\.\\./){${levels}}(?!\\.\\.?/)`;
  return {
    files: [`apps/web/src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webServerImports,
            {
              // `../../domains/…` from features/sites/components/: up to features/, then elsewhere.
              regex: `${up(depth + 1)}(?!${name}(?:/|$))`,
              message: `A feature imports only from itself: move what '${feature}' shares with another feature to src/components, src/lib or src/api.`,
            },
            {
              // `../../../app/…`: up to src/, then a folder that is not shared.
              regex: `${up(depth + 2)}(?!(?:${WEB_SHARED_FOLDERS.join('|')})(?:/|$))`,
              message: `A feature imports from src/ only: ${WEB_SHARED_FOLDERS.join(', ')}.`,
            },
            {
              regex: `(?:^|/)features/(?!${name}/)`,
              message: `A feature imports only from itself: move what '${feature}' shares with another feature to src/components, src/lib or src/api.`,
            },
          ],
        },
      ],
    },
  };
}

// Server module boundaries (docs/decisions/013-module-boundaries.md): a module's repositories
// (`*.repository.ts`) are private to its folder. Other modules, jobs, routes and the rest of the
// server go through the module's service. Tests may seed data through any repository.
const serverModules = readdirSync(new URL('./apps/server/src/modules', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const SERVER_TESTS = ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**'];
const repositoryMessage = (owner) =>
  `A repository is private to its module: ask ${owner}'s service (or add a method to it) instead.`;

/** Files of `modules/<name>/`: no `../<other module>/….repository.js`. */
function serverModuleBoundary(name) {
  return {
    files: [`apps/server/src/modules/${name}/**/*.ts`],
    ignores: SERVER_TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?:\\.\\./)+(?!${escapeRegex(name)}/)[\\w-]+/(?:[\\w-]+/)*[\\w.-]+\\.repository(?:\\.js)?$`,
              message: repositoryMessage('the other module'),
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/screenshots/**',
      // Fixture sites are content served to the engine under test, not our code.
      'packages/engine/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [webServerImports] }],
    },
  },
  {
    // Shared code is below the features: only app/ (the composition root) and test/ import them.
    files: ['apps/web/src/{components,lib,api,hooks}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            webServerImports,
            {
              regex: '(?:^|/)features(?:/|$)',
              message:
                'Shared code (components, lib, api, hooks) never imports a feature: move the piece up here instead.',
            },
          ],
        },
      ],
    },
  },
  ...webFeatures.flatMap((feature) =>
    FEATURE_DEPTHS.map((depth) => featureBoundary(feature, depth)),
  ),
  {
    // Outside modules/ (routes, services.ts, hosting, roles): no module's repository at all.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/modules/**', ...SERVER_TESTS],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(?:^|/)modules/[\\w-]+/(?:[\\w-]+/)*[\\w.-]+\\.repository(?:\\.js)?$',
              message: repositoryMessage('the module'),
            },
          ],
        },
      ],
    },
  },
  ...serverModules.map(serverModuleBoundary),
  {
    files: ['packages/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@mirror/server', '**/apps/**', 'kysely', 'pg', 'better-sqlite3'] },
      ],
    },
  },
  {
    // Customization is a library of its own (docs/decisions/012-customize-package.md): it needs
    // the contract's types, never the engine or the server.
    files: ['packages/customize/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@mirror/server',
            '@mirror/engine',
            '**/apps/**',
            '**/packages/engine/**',
            'kysely',
            'pg',
            'better-sqlite3',
          ],
        },
      ],
    },
  },
  {
    // The engine's and the server's test files share one process per worker (`isolate: false` in
    // vitest.config.ts): a stubbed module, global or timer would outlive its file and change the
    // next file's subject. Tests use the real thing (a local server, a test app, a short limit).
    files: ['packages/engine/**/*.ts', 'apps/server/src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubGlobal', 'stubEnv', 'useFakeTimers'].map((property) => ({
          object: 'vi',
          property,
          message: `vi.${property} outlives its test file: the engine's and the server's files share one process per worker (vitest.config.ts).`,
        })),
      ],
    },
  },
  {
    files: [
      'scripts/**/*.mjs',
      'bench/**/*.mjs',
      'apps/server/src/main.ts',
      'apps/server/src/start.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
