// Proves each boundary rule of eslint.config.mjs fires: remove a rule and a
// probe here fails. The probes are linted as virtual files inside each package.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const workspace = fileURLToPath(new URL('../../../', import.meta.url));

let eslint: ESLint;
let scratch: string;
/** An nx workspace data folder with no project graph in it. */
let emptyGraph: string;
/** The plain eslint run's verdict on each probe of the last describe, keyed by file and code. */
let verdicts: Promise<Map<string, PlainVerdict>>;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ow-no-graph-'));
  emptyGraph = join(scratch, 'workspace-data');
  mkdirSync(emptyGraph);
  // The plain run lints while the tests in this process do.
  verdicts = plainEslint([...PLAIN_FORBIDDEN.map(([file, code]) => [file, code] as const), PLAIN_PERMITTED]);
  // Awaited by its tests; a failure is theirs, not an unhandled rejection before they run.
  verdicts.catch(() => {});
  // The nx boundary rule skips itself without a cached project graph.
  if (!existsSync(join(workspace, '.nx/workspace-data/project-graph.json'))) {
    execFileSync('npx', ['nx', 'show', 'projects'], { cwd: workspace, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' }, stdio: 'ignore' });
  }
  eslint = new ESLint({ cwd: workspace });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(workspace, file) });
  // A probe that does not parse would pass the negative checks vacuously.
  const fatal = result?.messages.find((message) => message.fatal);
  if (fatal) throw new Error(`probe ${file} did not parse: ${fatal.message}`);
  return (result?.messages ?? []).map((message) => ({ rule: message.ruleId, message: message.message }));
}

/** Probes for the plain eslint run: each forbidden one with a line its output must hold, and one permitted. */
const PLAIN_FORBIDDEN = [
  ['packages/builtin-tools/src/lint-probe.ts', "import { runCli } from '@openwork/cli';\nexport const probe = runCli;\n", 'may not depend on @openwork/cli'],
  ['packages/builtin-tools/src/lint-probe.ts', "export const probe = import('@openwork/cli');\n", 'may not depend on @openwork/cli'],
  ['packages/builtin-tools/src/lint-probe.ts', "export { runCli } from '@openwork/cli';\n", 'may not depend on @openwork/cli'],
  ['packages/builtin-tools/src/lint-probe.ts', "export const probe = import('node:child_process');\n", 'may touch the host'],
  ['packages/builtin-tools/src/lint-probe.ts', "export const probe = import('@openwork/path-guard/backend');\n", 'Only fs-backend may open a CheckedPath'],
  ['packages/tool-contract/src/lint-probe.ts', "export const probe = import('@openwork/path-guard');\n", 'may not depend on @openwork/path-guard'],
  ['packages/toolset-finalizer/src/lint-probe.ts', "import type { BuiltinSession } from '@openwork/builtin-tools';\nexport type Probe = BuiltinSession;\n", 'may not depend on @openwork/builtin-tools'],
  ['packages/process-backend/src/lint-probe.ts', "export const probe = import('@openwork/fs-backend/node');\n", 'may not depend on @openwork/fs-backend'],
  ['packages/cli/src/lint-probe.ts', "export const probe = import('@openwork/path-guard/backend');\n", 'Only fs-backend may open a CheckedPath'],
] as const;
const PLAIN_PERMITTED = ['packages/builtin-tools/src/lint-probe.ts', "export const probe = import('@openwork/tool-contract');\n"] as const;

interface PlainVerdict {
  /** What the eslint command would exit with: 1 for an error, 0 for none. */
  exitCode: number;
  output: string;
}

/**
 * ESLint's own Node API, the one the eslint command and editors use, in a
 * process of its own whose nx finds no project graph (nx fixes that folder
 * when it loads, so this process cannot be the one). The verdict of each
 * probe is keyed by file and code.
 */
async function plainEslint(probes: readonly (readonly [string, string])[]): Promise<Map<string, PlainVerdict>> {
  const script = `
    import { ESLint } from 'eslint';
    import { writeFileSync } from 'node:fs';
    import { join } from 'node:path';
    import { text } from 'node:stream/consumers';
    const eslint = new ESLint({ cwd: process.cwd() });
    const verdicts = [];
    for (const [file, code] of JSON.parse(await text(process.stdin))) {
      const [result] = await eslint.lintText(code, { filePath: join(process.cwd(), file) });
      const formatted = (await eslint.loadFormatter('stylish')).format([result]);
      verdicts.push({ file, code, exitCode: result.errorCount > 0 ? 1 : 0, output: formatted });
    }
    writeFileSync(process.argv[1], JSON.stringify(verdicts));
  `;
  const results = join(scratch, 'verdicts.json');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, results], {
    cwd: workspace,
    env: { ...process.env, NX_WORKSPACE_DATA_DIRECTORY: emptyGraph, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(JSON.stringify(probes));
  const [exitCode] = (await once(child, 'close')) as [number | null];
  if (exitCode !== 0) throw new Error(`the eslint process exited ${exitCode}: ${output}`);
  const verdicts = JSON.parse(readFileSync(results, 'utf8')) as (PlainVerdict & { file: string; code: string })[];
  return new Map(verdicts.map(({ file, code, ...verdict }) => [`${file}\0${code}`, verdict]));
}

describe('the dependency direction of docs/contract.md §1 is enforced in lint', () => {
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

  it('permission-policy may not import cli or toolset-finalizer, and neither builtin-tools nor bash-classifier may import it; bash-classifier may not import builtin-tools', async () => {
    for (const [file, code] of [
      ['packages/permission-policy/src/lint-probe.ts', "import { runCli } from '@openwork/cli';\nexport const probe = runCli;\n"],
      ['packages/permission-policy/src/lint-probe.ts', "import type { Authorize } from '@openwork/toolset-finalizer';\nexport type Probe = Authorize;\n"],
      ['packages/builtin-tools/src/lint-probe.ts', "import { decide } from '@openwork/permission-policy';\nexport const probe = decide;\n"],
      ['packages/bash-classifier/src/lint-probe.ts', "import { decide } from '@openwork/permission-policy';\nexport const probe = decide;\n"],
      ['packages/bash-classifier/src/lint-probe.ts', "import { bashTool } from '@openwork/builtin-tools';\nexport const probe = bashTool;\n"],
    ] as const) {
      expect((await lint(file, code)).map((message) => message.rule), code).toContain('@nx/enforce-module-boundaries');
    }
  });

  it('cli may use permission-policy, permission-policy bash-classifier and builtin-tools, and builtin-tools bash-classifier', async () => {
    const cli = await lint('packages/cli/src/lint-probe.ts', "import { authorizer } from '@openwork/permission-policy';\nexport const probe = authorizer;\n");
    expect(cli.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
    const policy = await lint('packages/permission-policy/src/lint-probe.ts', "import { decideBashCommand } from '@openwork/bash-classifier';\nexport const probe = decideBashCommand;\n");
    expect(policy.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
    const tools = await lint('packages/permission-policy/src/lint-probe.ts', "import { builtinTools } from '@openwork/builtin-tools';\nexport const probe = builtinTools;\n");
    expect(tools.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
    const bash = await lint('packages/builtin-tools/src/lint-probe.ts', "import { autoRunEnvironment } from '@openwork/bash-classifier';\nexport const probe = autoRunEnvironment;\n");
    expect(bash.map((message) => message.rule)).not.toContain('@nx/enforce-module-boundaries');
  });

  it('the rule table has a constraint per layer and no wildcard', async () => {
    const { depConstraints } = (await import(join(workspace, 'eslint.config.mjs'))) as { depConstraints: { sourceTag: string; onlyDependOnLibsWithTags: string[] }[] };
    expect(depConstraints.map((constraint) => constraint.sourceTag)).toEqual(
      expect.arrayContaining(['layer:contract', 'layer:path-guard', 'layer:tree-search', 'layer:fs-backend', 'layer:process-backend', 'layer:bash-classifier', 'layer:builtin-tools', 'layer:finalizer', 'layer:permission-policy', 'layer:cli']),
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

  it('bash-classifier may not import node:fs, node:child_process, a backend implementation, or the CheckedPath door', async () => {
    for (const module of ['node:fs', 'node:child_process', '@openwork/fs-backend/node', '@openwork/process-backend/pipe', '@openwork/path-guard/backend']) {
      const messages = await lint('packages/bash-classifier/src/lint-probe.ts', `import * as host from '${module}';\nexport const probe = host;\n`);
      expect(messages.map((message) => message.rule), module).toContain('no-restricted-imports');
    }
  });

  it('permission-policy may not import node:fs or a backend implementation', async () => {
    for (const module of ['node:fs', 'node:child_process', '@openwork/fs-backend/node', '@openwork/process-backend/pipe']) {
      const messages = await lint('packages/permission-policy/src/lint-probe.ts', `import * as host from '${module}';\nexport const probe = host;\n`);
      expect(messages.map((message) => message.rule), module).toContain('no-restricted-imports');
    }
  });

  it('tree-search may not import node:fs, the CheckedPath door or the file systems above it', async () => {
    for (const module of ['node:fs', 'fs/promises', 'node:child_process', '@openwork/path-guard/backend', '@openwork/fs-backend', '@openwork/fs-backend/node']) {
      const messages = await lint('packages/tree-search/src/lint-probe.ts', `import * as host from '${module}';\nexport const probe = host;\n`);
      expect(messages.map((message) => message.rule), module).toContain('no-restricted-imports');
    }
  });

  it('fs-backend and builtin-tools may use tree-search', async () => {
    for (const file of ['packages/fs-backend/src/lint-probe.ts', 'packages/builtin-tools/src/lint-probe.ts']) {
      const messages = await lint(file, "import { runTreeSearch } from '@openwork/tree-search';\nexport const probe = runTreeSearch;\n");
      expect(messages.map((message) => message.rule), file).not.toContain('no-restricted-imports');
      expect(messages.map((message) => message.rule), file).not.toContain('@nx/enforce-module-boundaries');
    }
  });

  it('fs-backend may import node:fs and the CheckedPath door', async () => {
    const messages = await lint('packages/fs-backend/src/lint-probe.ts', "import { readFile } from 'node:fs/promises';\nimport { readCheckedPath } from '@openwork/path-guard/backend';\nexport const probe = [readFile, readCheckedPath];\n");
    expect(messages.map((message) => message.rule)).not.toContain('no-restricted-imports');
  });
});

describe('the direction holds in a plain eslint run, with no nx project graph (an editor, a fresh checkout)', () => {
  it.each(PLAIN_FORBIDDEN)('%s: %s fails', async (file, code, message) => {
    const verdict = (await verdicts).get(`${file}\0${code}`);
    expect(existsSync(join(emptyGraph, 'project-graph.json'))).toBe(false);
    expect(verdict?.exitCode, verdict?.output).toBe(1);
    expect(verdict?.output).toContain(message);
  });

  it('a permitted import still passes', async () => {
    const verdict = (await verdicts).get(`${PLAIN_PERMITTED[0]}\0${PLAIN_PERMITTED[1]}`);
    expect(verdict?.exitCode, verdict?.output).toBe(0);
  });

  it('the package table the rules are made from matches every package.json', async () => {
    const { workspacePackages } = (await import(join(workspace, 'eslint.config.mjs'))) as { workspacePackages: { folder: string; name: string; tag: string }[] };
    const folders = ['packages', 'tools'].flatMap((parent) =>
      readdirSync(join(workspace, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(workspace, parent, entry.name, 'package.json')))
        .map((entry) => `${parent}/${entry.name}`),
    );
    const actual = folders.map((folder) => {
      const manifest = JSON.parse(readFileSync(join(workspace, folder, 'package.json'), 'utf8')) as { name: string; nx?: { tags?: string[] } };
      return { folder, name: manifest.name, tag: manifest.nx?.tags?.[0] ?? '' };
    });
    expect([...workspacePackages].sort((a, b) => a.folder.localeCompare(b.folder))).toEqual(actual.sort((a, b) => a.folder.localeCompare(b.folder)));
  });
});

describe('no promise is dropped', () => {
  it('no-floating-promises fires on a dropped promise', async () => {
    const messages = await lint('packages/cli/src/lint-probe-typed.ts', 'export function probe(): void {\n  Promise.resolve(1);\n}\n');
    expect(messages.map((message) => message.rule)).toContain('@typescript-eslint/no-floating-promises');
  });
});
