import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, inject } from 'vitest';

// A TypeScript product compiled from the installed tarballs with
// skipLibCheck off: our declarations name no type that only a package the
// product does not have declares (docs/contract.md §1.1).

const project = inject('packageCheckProject');
const base = inject('packageCheckBase');
const require = createRequire(import.meta.url);
const consumer = fileURLToPath(new URL('../consumer/typed-consumer.ts', import.meta.url));

describe('the declarations compile with skipLibCheck false and only our packages installed', () => {
  it('a consumer of every entry point compiles, checking every declaration it reaches; none of web-tree-sitter is among them', async () => {
    // The product's own @types/node (a Node program has it), without adding it to the install the other tests measure.
    const types = join(base, 'types');
    await mkdir(types, { recursive: true });
    await symlink(await realpath(dirname(require.resolve('@types/node/package.json'))), join(types, 'node'));
    await copyFile(consumer, join(project, 'typed-consumer.ts'));
    const compilerOptions = {
      target: 'ES2023',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      skipLibCheck: false,
      noEmit: true,
      typeRoots: [types],
      types: ['node'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['typed-consumer.ts'] }));
    const tsc = require.resolve('typescript/bin/tsc');
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFiles', '--pretty', 'false'], { cwd: project, maxBuffer: 1 << 24 }).catch(
      (error: Error & { stdout?: string }) => ({ stdout: error.stdout ?? error.message }),
    );
    expect(stdout.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    const files = stdout.split('\n').filter((line) => line.endsWith('.d.ts'));
    expect(files).toContain(join(project, 'node_modules/@openwork/bash-classifier/dist/index.d.ts'));
    expect(files).toContain(join(project, 'node_modules/@openwork/cli/dist/index.d.ts'));
    expect(files.filter((file) => /\/node_modules\/(web-tree-sitter|@types\/emscripten|ai)\//.test(file))).toEqual([]);
    expect(await readFile(join(project, 'typed-consumer.ts'), 'utf8')).toContain('@ts-expect-error');
  }, 240_000);
});
