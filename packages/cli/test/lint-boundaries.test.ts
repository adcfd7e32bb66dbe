// Proves each boundary rule of eslint.config.mjs fires: remove a rule and a
// probe here fails. The probes are linted as virtual files inside each package.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const workspace = fileURLToPath(new URL('../../../', import.meta.url));

let eslint: ESLint;

beforeAll(() => {
  // The nx boundary rule skips itself without a cached project graph.
  if (!existsSync(join(workspace, '.nx/workspace-data/project-graph.json'))) {
    execFileSync('npx', ['nx', 'show', 'projects'], { cwd: workspace, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' }, stdio: 'ignore' });
  }
  eslint = new ESLint({ cwd: workspace });
});

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(workspace, file) });
  // A probe that does not parse would pass the negative checks vacuously.
  const fatal = result?.messages.find((message) => message.fatal);
  if (fatal) throw new Error(`probe ${file} did not parse: ${fatal.message}`);
  return (result?.messages ?? []).map((message) => ({ rule: message.ruleId, message: message.message }));
}

describe('the dependency direction of CONTRACT.md §1 is enforced in lint', () => {
  it('builtin-tools may not import cli', async () => {
    const messages = await lint('packages/builtin-tools/src/lint-probe.ts', "import { runCli } from '@openwork/cli';\nexport const probe = runCli;\n");
    expect(messages.map((message) => message.rule)).toContain('@nx/enforce-module-boundaries');
  });

  it('toolset-finalizer may use the contract only', async () => {
    const messages = await lint('packages/toolset-finalizer/src/lint-probe.ts', "import type { AsyncFileSystem } from '@openwork/fs-backend';\nexport type Probe = AsyncFileSystem;\n");
    expect(messages.map((message) => message.rule)).toContain('@nx/enforce-module-boundaries');
  });

  it('tool-contract may import no other package of the workspace', async () => {
    const messages = await lint('packages/tool-contract/src/lint-probe.ts', "import type { PathGuard } from '@openwork/path-guard';\nexport type Probe = PathGuard;\n");
    expect(messages.map((message) => message.rule)).toContain('@nx/enforce-module-boundaries');
  });

  it('permission-policy may not import cli or toolset-finalizer, and builtin-tools may not import it', async () => {
    for (const [file, code] of [
      ['packages/permission-policy/src/lint-probe.ts', "import { runCli } from '@openwork/cli';\nexport const probe = runCli;\n"],
      ['packages/permission-policy/src/lint-probe.ts', "import type { Authorize } from '@openwork/toolset-finalizer';\nexport type Probe = Authorize;\n"],
      ['packages/builtin-tools/src/lint-probe.ts', "import { decide } from '@openwork/permission-policy';\nexport const probe = decide;\n"],
    ] as const) {
      expect((await lint(file, code)).map((message) => message.rule), code).toContain('@nx/enforce-module-boundaries');
    }
  });

  it('cli may use permission-policy, and permission-policy builtin-tools', async () => {
    const cli = await lint('packages/cli/src/lint-probe.ts', "import { authorizer } from '@openwork/permission-policy';\nexport const probe = authorizer;\n");
    expect(cli.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
    const policy = await lint('packages/permission-policy/src/lint-probe.ts', "import { decideBashCommand } from '@openwork/builtin-tools';\nexport const probe = decideBashCommand;\n");
    expect(policy.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
  });

  it('the rule table has a constraint per layer and no wildcard', async () => {
    const { depConstraints } = (await import(join(workspace, 'eslint.config.mjs'))) as { depConstraints: { sourceTag: string; onlyDependOnLibsWithTags: string[] }[] };
    expect(depConstraints.map((constraint) => constraint.sourceTag)).toEqual(
      expect.arrayContaining(['layer:contract', 'layer:path-guard', 'layer:fs-backend', 'layer:process-backend', 'layer:builtin-tools', 'layer:finalizer', 'layer:permission-policy', 'layer:cli']),
    );
    const tags = depConstraints.flatMap((constraint) => [constraint.sourceTag, ...constraint.onlyDependOnLibsWithTags]);
    expect(tags.filter((tag) => tag.includes('*'))).toEqual([]);
  });

  it('a permitted import passes: builtin-tools may use the contract', async () => {
    const messages = await lint('packages/builtin-tools/src/lint-probe.ts', "import { ToolError } from '@openwork/tool-contract';\nexport const probe = ToolError;\n");
    expect(messages.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
  });
});

describe('only the backends and cli touch the host', () => {
  it('tool-contract may not import node:fs', async () => {
    const messages = await lint('packages/tool-contract/src/lint-probe.ts', "import { readFile } from 'node:fs/promises';\nexport const probe = readFile;\n");
    expect(messages.map((message) => message.rule)).toContain('no-restricted-imports');
  });

  it('path-guard may not import node:fs or node:child_process', async () => {
    for (const module of ['node:fs', 'fs', 'node:child_process']) {
      const messages = await lint('packages/path-guard/src/lint-probe.ts', `import * as host from '${module}';\nexport const probe = host;\n`);
      expect(messages.map((message) => message.rule)).toContain('no-restricted-imports');
    }
  });

  it('builtin-tools may not import node:child_process, a backend implementation, or the CheckedPath door', async () => {
    for (const module of ['node:child_process', '@openwork/fs-backend/node', '@openwork/process-backend/pipe', '@openwork/path-guard/backend']) {
      const messages = await lint('packages/builtin-tools/src/lint-probe.ts', `import * as host from '${module}';\nexport const probe = host;\n`);
      expect(messages.map((message) => message.rule)).toContain('no-restricted-imports');
    }
  });

  it('permission-policy may not import node:fs or a backend implementation', async () => {
    for (const module of ['node:fs', 'node:child_process', '@openwork/fs-backend/node', '@openwork/process-backend/pipe']) {
      const messages = await lint('packages/permission-policy/src/lint-probe.ts', `import * as host from '${module}';\nexport const probe = host;\n`);
      expect(messages.map((message) => message.rule), module).toContain('no-restricted-imports');
    }
  });

  it('fs-backend may import node:fs and the CheckedPath door', async () => {
    const messages = await lint('packages/fs-backend/src/lint-probe.ts', "import { readFile } from 'node:fs/promises';\nimport { readCheckedPath } from '@openwork/path-guard/backend';\nexport const probe = [readFile, readCheckedPath];\n");
    expect(messages.map((message) => message.rule)).not.toContain('no-restricted-imports');
  });
});

describe('no promise is dropped', () => {
  it('no-floating-promises fires on a dropped promise', async () => {
    const messages = await lint('packages/cli/src/lint-probe.ts', 'export function probe(): void {\n  Promise.resolve(1);\n}\n');
    expect(messages.map((message) => message.rule)).toContain('@typescript-eslint/no-floating-promises');
  });
});
