// The whole repository's lint: TypeScript rules, the package dependency
// direction (docs/contract.md §1) and the host-access boundary. The probes in
// packages/cli/test/lint-boundaries.test.ts prove each rule fires.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Which layer may depend on which (docs/contract.md §1); never a wildcard. */
export const depConstraints = [
  { sourceTag: 'layer:contract', onlyDependOnLibsWithTags: ['layer:contract'] },
  { sourceTag: 'layer:path-guard', onlyDependOnLibsWithTags: ['layer:contract'] },
  { sourceTag: 'layer:tree-search', onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard'] },
  { sourceTag: 'layer:fs-backend', onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard', 'layer:tree-search'] },
  { sourceTag: 'layer:process-backend', onlyDependOnLibsWithTags: ['layer:contract'] },
  {
    sourceTag: 'layer:bash-classifier',
    onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard', 'layer:fs-backend', 'layer:process-backend'],
  },
  {
    sourceTag: 'layer:builtin-tools',
    onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard', 'layer:tree-search', 'layer:fs-backend', 'layer:process-backend', 'layer:bash-classifier'],
  },
  { sourceTag: 'layer:finalizer', onlyDependOnLibsWithTags: ['layer:contract'] },
  {
    sourceTag: 'layer:permission-policy',
    onlyDependOnLibsWithTags: ['layer:contract', 'layer:path-guard', 'layer:tree-search', 'layer:fs-backend', 'layer:bash-classifier', 'layer:builtin-tools'],
  },
  {
    sourceTag: 'layer:cli',
    onlyDependOnLibsWithTags: [
      'layer:contract',
      'layer:path-guard',
      'layer:tree-search',
      'layer:fs-backend',
      'layer:process-backend',
      'layer:bash-classifier',
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
      'layer:tree-search',
      'layer:fs-backend',
      'layer:process-backend',
      'layer:bash-classifier',
      'layer:builtin-tools',
      'layer:finalizer',
      'layer:permission-policy',
      'layer:cli',
      'layer:tooling',
    ],
  },
];

/**
 * Every package of the workspace with its layer tag, the same as in its
 * package.json (a test keeps the two equal). The boundary rules below are
 * generated from this and depConstraints, so they hold in any eslint run,
 * an editor's included, with or without nx's cached project graph.
 */
export const workspacePackages = [
  { folder: 'packages/tool-contract', name: '@openwork/tool-contract', tag: 'layer:contract' },
  { folder: 'packages/path-guard', name: '@openwork/path-guard', tag: 'layer:path-guard' },
  { folder: 'packages/tree-search', name: '@openwork/tree-search', tag: 'layer:tree-search' },
  { folder: 'packages/fs-backend', name: '@openwork/fs-backend', tag: 'layer:fs-backend' },
  { folder: 'packages/process-backend', name: '@openwork/process-backend', tag: 'layer:process-backend' },
  { folder: 'packages/bash-classifier', name: '@openwork/bash-classifier', tag: 'layer:bash-classifier' },
  { folder: 'packages/builtin-tools', name: '@openwork/builtin-tools', tag: 'layer:builtin-tools' },
  { folder: 'packages/toolset-finalizer', name: '@openwork/toolset-finalizer', tag: 'layer:finalizer' },
  { folder: 'packages/permission-policy', name: '@openwork/permission-policy', tag: 'layer:permission-policy' },
  { folder: 'packages/cli', name: '@openwork/cli', tag: 'layer:cli' },
  { folder: 'tools/bench', name: '@openwork/bench', tag: 'layer:tooling' },
  { folder: 'tools/demo', name: '@openwork/demo', tag: 'layer:tooling' },
  { folder: 'tools/package-check', name: '@openwork/package-check', tag: 'layer:tooling' },
  { folder: 'tools/scripts', name: '@openwork/workspace-scripts', tag: 'layer:tooling' },
];

const hostModules = ['fs', 'fs/promises', 'node:fs', 'node:fs/promises', 'child_process', 'node:child_process'];
const HOST_MESSAGE = 'Only fs-backend, process-backend and cli may touch the host; go through AsyncFileSystem or ProcessBackend.';
/** Layers whose source may not touch the host. */
const NO_HOST = new Set(['layer:contract', 'layer:path-guard', 'layer:tree-search', 'layer:finalizer', 'layer:bash-classifier', 'layer:builtin-tools', 'layer:permission-policy']);
/** Layers whose source uses the backend interfaces, never an implementation. */
const INTERFACES_ONLY = new Set(['layer:bash-classifier', 'layer:builtin-tools', 'layer:permission-policy']);
const BACKEND_IMPLEMENTATIONS = [
  '@openwork/fs-backend/node',
  '@openwork/fs-backend/memory',
  '@openwork/process-backend/pipe',
  '@openwork/process-backend/pty',
  '@openwork/process-backend/cgroup',
];

/** Specifiers a package may not import (exactly, or a package with any subpath), each with why. */
export function forbiddenImports(pkg, { source }) {
  const allowed = depConstraints.find((constraint) => constraint.sourceTag === pkg.tag)?.onlyDependOnLibsWithTags ?? [];
  const forbidden = [];
  for (const other of workspacePackages) {
    if (other.name === pkg.name || allowed.includes(other.tag)) continue;
    forbidden.push({ name: other.name, subpaths: true, message: `${pkg.name} (${pkg.tag}) may not depend on ${other.name} (${other.tag}): docs/contract.md §1.` });
  }
  if (pkg.tag !== 'layer:fs-backend') forbidden.push({ name: '@openwork/path-guard/backend', message: 'Only fs-backend may open a CheckedPath.' });
  if (source && NO_HOST.has(pkg.tag)) forbidden.push(...hostModules.map((name) => ({ name, message: HOST_MESSAGE })));
  if (source && INTERFACES_ONLY.has(pkg.tag)) {
    forbidden.push(...BACKEND_IMPLEMENTATIONS.map((name) => ({ name, message: 'Tools use the backend interfaces; the session hands them an implementation.' })));
  }
  return forbidden;
}

// esquery's regex literal ends at the first `/`, so a slash is written \x2F.
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '\\x2F');

/** The rules for one package: static imports and re-exports through no-restricted-imports, `import()` through no-restricted-syntax. */
function boundaryRules(pkg, options) {
  const forbidden = forbiddenImports(pkg, options);
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: forbidden.map(({ name, message }) => ({ name, message })),
        patterns: forbidden.filter((entry) => entry.subpaths).map(({ name, message }) => ({ group: [`${name}/*`], message })),
      },
    ],
    'no-restricted-syntax': [
      'error',
      ...forbidden.map(({ name, subpaths, message }) => ({
        selector: `ImportExpression[source.value=/^${escapeRegExp(name)}${subpaths ? '(\\x2F.*)?' : ''}$/]`,
        message,
      })),
    ],
  };
}

const boundaryConfigs = workspacePackages.flatMap((pkg) => [
  { files: [`${pkg.folder}/**/*.ts`], ignores: [`${pkg.folder}/src/**`], rules: boundaryRules(pkg, { source: false }) },
  { files: [`${pkg.folder}/src/**/*.ts`], ignores: ['**/*.test.ts'], rules: boundaryRules(pkg, { source: true }) },
  { files: [`${pkg.folder}/src/**/*.test.ts`], rules: boundaryRules(pkg, { source: false }) },
]);

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.nx/**', '**/coverage/**', '**/*.d.ts', '**/*.generated.js', 'tools/bench/.corpus/**', 'tools/demo/sample/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.mjs', '*.js', 'packages/*/bin/*.js', 'packages/*/src/lint-probe-typed.ts'],
          // The boundary probes (packages/cli/test/lint-boundaries.test.ts) are one file per package, never on disk.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
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
  ...boundaryConfigs,
  {
    // Build configuration is not package code: it may reach the shared root config.
    files: ['packages/*/vitest.config.ts', 'tools/*/vitest.config.ts', 'vitest.shared.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // The boundary probes (packages/cli/test/lint-boundaries.test.ts) test rules that read imports, not types: parsed
    // without a program, each costs a parse instead of a TypeScript program over the packages it imports.
    // lint-probe-typed.ts is the probe of the type-aware rules.
    files: ['packages/*/src/lint-probe.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);
