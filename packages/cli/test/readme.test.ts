import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseSettings } from '@openwork/permission-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const readmePath = join(repository, 'README.md');
/** The README's TypeScript example, as a file the workspace typecheck compiles. */
const EXAMPLE = fileURLToPath(new URL('fixtures/readme-example.ts', import.meta.url));
let readme: string;
/** A project the example works in: a README of a few lines, nothing else. */
let project: string;

/** The fenced blocks of a language, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1] ?? '');
}

beforeAll(async () => {
  readme = await readFile(readmePath, 'utf8');
  project = await realpath(await mkdtemp(join(tmpdir(), 'readme-project-')));
  await writeFile(join(project, 'README.md'), '# a project\n\nwith a README\nof four lines\n');
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('the README works from a fresh clone', () => {
  it('keeps its first two commands: set up and run the demo, then the whole suite', () => {
    expect(blocks(readme, 'sh').slice(0, 2)).toEqual([
      'npm i -g -E pnpm@12.4.2 && npm_config_nodedir=/usr pnpm install --frozen-lockfile && pnpm demo\n',
      'pnpm test\n',
    ]);
  });

  it('its TypeScript example, imports included, is test/fixtures/readme-example.ts, which the workspace typecheck compiles, and runs: reads run, the write is denied', async () => {
    const example = blocks(readme, 'ts').find((block) => block.startsWith('import '));
    // The root tsconfig.json includes the fixture, so `pnpm test`'s typecheck is the example's.
    expect(example).toBe(await readFile(EXAMPLE, 'utf8'));
    const included = (JSON.parse(await readFile(join(repository, 'tsconfig.json'), 'utf8')) as { include: string[] }).include;
    expect(included).toContain('packages/*/test/**/*.ts');

    const { stdout } = await run(process.execPath, ['--import', import.meta.resolve('tsx'), EXAMPLE], { cwd: project, env: { ...process.env, HOME: project } });
    expect(stdout).toContain('read: ok\n');
    expect(stdout).toContain('# a project');
    expect(stdout).toMatch(/^bash: ok\n[\s\S]*?<stdout>\nREADME\.md\n<\/stdout>/m);
    expect(stdout).toMatch(/^write: denied\nError \[denied\]: write was not run: write writes notes\.txt; nobody could be asked; mode 'acceptEdits', or an ask that reaches a person \(authorizer's ask\) would let it run$/m);
    await expect(access(join(project, 'notes.txt'))).rejects.toThrow();
  }, 180_000);

  it('its settings file example is read as it is written', () => {
    const settings = blocks(readme, 'json').find((block) => block.includes('"permissions"'));
    expect(parseSettings(settings ?? '')).toMatchObject({ ok: true, settings: { allow: [{ text: 'bash:npm test' }, { text: 'bash:make' }] } });
  });
});

/** The README of the repository and of each package. */
async function readmes(): Promise<string[]> {
  const packages = join(repository, 'packages');
  const names = (await readdir(packages)).sort();
  return [readmePath, ...names.map((name) => join(packages, name, 'README.md'))];
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('the READMEs point only at what exists', () => {
  it('every relative link resolves; a package README links only inside its package, which is all it ships with', async () => {
    for (const file of await readmes()) {
      const text = await readFile(file, 'utf8');
      const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1] ?? '');
      for (const target of targets) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const path = resolve(dirname(file), decodeURIComponent(target.split('#')[0] ?? ''));
        expect(await exists(path), `${relative(repository, file)} links to ${target}`).toBe(true);
        if (file !== readmePath) expect(relative(dirname(file), path).startsWith('..'), `${relative(repository, file)} links outside its package: ${target}`).toBe(false);
      }
    }
  });

  it('the README names only files of the repository, and no document it does not ship', async () => {
    expect(readme).not.toMatch(/CONTRACT\.md/);
    // Paths written out, linked or not; build output (dist/) exists only after a build.
    for (const [path] of readme.matchAll(/\b(?:docs|tools|packages)\/[\w./-]*[\w/]/g)) {
      if (path.includes('/dist/') || path.endsWith('/dist')) continue;
      expect(await exists(join(repository, path)), `README.md names ${path}`).toBe(true);
    }
    for (const file of await readmes()) {
      const text = await readFile(file, 'utf8');
      expect(text, relative(repository, file)).not.toMatch(/seed\s§|CONTRACT\.md/);
    }
  });
});
