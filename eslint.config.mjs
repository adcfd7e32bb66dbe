// The whole repository's lint: TypeScript rules, the package dependency
// direction (CONTRACT.md §1) and the host-access boundary. The probes in
// packages/cli/test/lint-boundaries.test.ts prove each rule fires.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Which layer may depend on which (CONTRACT.md §1); never a wildcard. */
export const depConstraints = [
  { sourceTag: 'layer:contract', onlyDependOnLibsWithTags: ['layer:contract'] },
  { sourceTag: 'layer:path-guard', onlyDependOnLibsWithTags: ['layer:contract'] },
  { sourceTag: 'layer:fs-backend', onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard'] },
  { sourceTag: 'layer:process-backend', onlyDependOnLibsWithTags: ['layer:contract'] },
  {
    sourceTag: 'layer:builtin-tools',
    onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard', 'layer:fs-backend', 'layer:process-backend'],
  },
  { sourceTag: 'layer:finalizer', onlyDependOnLibsWithTags: ['layer:contract'] },
  {
    sourceTag: 'layer:permission-policy',
    onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard', 'layer:fs-backend', 'layer:builtin-tools'],
  },
  {
    sourceTag: 'layer:cli',
    onlyDependOnLibsWithTags: [
      'layer:contract',
      'layer:path-guard',
      'layer:fs-backend',
      'layer:process-backend',
      'layer:builtin-tools',
      'layer:finalizer',
      'layer:permission-policy',
    ],
  },
  {
    sourceTag: 'layer:tooling',
    onlyDependOnLibsWithTags: [
      'layer:contract',
      'layer:path-guard',
      'layer:fs-backend',
      'layer:process-backend',
      'layer:builtin-tools',
      'layer:finalizer',
      'layer:permission-policy',
      'layer:cli',
      'layer:tooling',
    ],
  },
];

const hostModules = ['fs', 'fs/promises', 'node:fs', 'node:fs/promises', 'child_process', 'node:child_process'];

/** Only the backends and the cli touch the host file system and processes. */
export const hostAccessRule = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        ...hostModules.map((name) => ({
          name,
          message: 'Only fs-backend, process-backend and cli may touch the host; go through AsyncFileSystem or ProcessBackend.',
        })),
        {
          name: '@openwork/path-guard/backend',
          message: 'Only fs-backend may open a CheckedPath.',
        },
      ],
    },
  ],
};

const backendOnlyRule = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        ...['@openwork/fs-backend/node', '@openwork/fs-backend/memory', '@openwork/process-backend/pipe', '@openwork/process-backend/pty'].map(
          (name) => ({ name, message: 'Tools use the backend interfaces; the session hands them an implementation.' }),
        ),
        ...hostAccessRule['no-restricted-imports'][1].paths,
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.nx/**', '**/coverage/**', '**/*.d.ts', 'tools/bench/.corpus/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.mjs', '*.js', 'packages/*/bin/*.js', 'packages/*/src/lint-probe.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints, banTransitiveDependencies: false },
      ],
    },
  },
  {
    files: ['packages/{tool-contract,path-guard,toolset-finalizer}/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: hostAccessRule,
  },
  {
    // The policy decides on interfaces; the session it is given holds the implementations.
    files: ['packages/{builtin-tools,permission-policy}/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: backendOnlyRule,
  },
  {
    // Build configuration is not package code: it may reach the shared root config.
    files: ['packages/*/vitest.config.ts', 'tools/*/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);
