import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Popular packages whose installed trees make a corpus of real source (with their dependencies). */
export const CORPUS_PACKAGES = [
  'typescript', 'next', '@mui/material', 'date-fns', 'lodash', 'rxjs', 'three',
  'monaco-editor', 'webpack', 'eslint', '@babel/core', '@angular/core', 'vue', 'antd', 'prettier',
  'core-js', 'react', 'react-dom',
] as const;

export interface Corpus {
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
}

const VERSION = 'corpus-v1';

export function cacheDirectory(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'openwork-bench');
}

async function measureTree(root: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        files += 1;
        bytes += (await stat(path)).size;
      }
    }
  };
  await walk(root);
  return { files, bytes };
}

/** Installs the corpus once (npm, no scripts) into the cache, or reuses it. */
export async function ensureCorpus(log: (line: string) => void): Promise<Corpus> {
  const root = join(cacheDirectory(), VERSION);
  const marker = join(root, '.complete.json');
  if (existsSync(marker)) return { root, ...(JSON.parse(await readFile(marker, 'utf8')) as { files: number; bytes: number }) };
  log(`building the corpus in ${root} (npm install of ${CORPUS_PACKAGES.length} packages, once)`);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'openwork-bench-corpus', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error', ...CORPUS_PACKAGES], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const measured = await measureTree(root);
  await writeFile(marker, JSON.stringify(measured));
  return { root, ...measured };
}

/**
 * Two small trees from the corpus, one with a 200 MB log directory that its
 * .gitignore hides: searching both should cost the same.
 */
export async function ensureIgnoredLogTrees(corpus: Corpus, log: (line: string) => void): Promise<{ withLogs: string; without: string }> {
  const base = join(cacheDirectory(), `${VERSION}-ignored-logs`);
  const withLogs = join(base, 'with-logs');
  const without = join(base, 'without');
  if (existsSync(join(base, '.complete'))) return { withLogs, without };
  log(`building the ignored-log trees in ${base}`);
  await rm(base, { recursive: true, force: true });
  const source = join(corpus.root, 'node_modules', 'rxjs');
  for (const tree of [withLogs, without]) {
    await mkdir(tree, { recursive: true });
    execFileSync('cp', ['-r', source, join(tree, 'src')]);
    await writeFile(join(tree, '.gitignore'), 'logs/\n');
  }
  const logs = join(withLogs, 'logs');
  await mkdir(logs);
  const line = 'INFO 2026-12-03T06:00:00Z request handled in 12 ms path=/api/v1/items status=200\n';
  const chunk = line.repeat(Math.ceil((1024 * 1024) / line.length)).slice(0, 1024 * 1024);
  for (let index = 0; index < 200; index += 1) await writeFile(join(logs, `app-${String(index).padStart(3, '0')}.log`), chunk);
  await writeFile(join(base, '.complete'), '');
  return { withLogs, without };
}

/**
 * 16 folders of 15,000 empty `.log` files that `.gitignore` leaves out, one
 * by one, each folder with one searched file: a search that must walk every
 * folder and skip every log. On /dev/shm where there is one (empty files take
 * no pages there), removed by the caller after the run.
 */
export async function makeIgnoredFilesTree(log: (line: string) => void): Promise<{ base: string; root: string; readable: string; ignored: number }> {
  const FOLDERS = 16;
  const PER_FOLDER = 15_000;
  const base = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'openwork-bench-one-cpu-'));
  const root = join(base, 'tree');
  log(`building ${FOLDERS * PER_FOLDER} ignored files in ${root}`);
  await mkdir(root);
  await writeFile(join(root, '.gitignore'), '*.log\n');
  for (let folder = 0; folder < FOLDERS; folder += 1) {
    const directory = join(root, `d${String(folder).padStart(2, '0')}`);
    await mkdir(directory);
    await writeFile(join(directory, 'needle.txt'), `needle ${folder}\n`);
    for (let file = 0; file < PER_FOLDER; file += 1) closeSync(openSync(join(directory, `f${file}.log`), 'w'));
  }
  return { base, root, readable: 'd00/needle.txt', ignored: FOLDERS * PER_FOLDER };
}
