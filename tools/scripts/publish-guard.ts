// The `prepack` of every published package (pack and publish both run it,
// with npm as with pnpm): it refuses unless the package is built and the
// manifest that would go out is the publish manifest. The manifest in the
// repository is the workspace's: its exports point at src/*.ts and its
// dependencies are `workspace:*`. pnpm replaces both when it packs
// (publishConfig, workspace ranges); npm does neither, and ignores
// publishConfig.exports. docs/decisions/0020-publishing-guarded.md.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Dependencies = Readonly<Record<string, string>>;

export interface Manifest {
  readonly name?: string;
  readonly exports?: unknown;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly main?: string;
  readonly types?: string;
  readonly publishConfig?: Readonly<Record<string, unknown>>;
  readonly dependencies?: Dependencies;
  readonly devDependencies?: Dependencies;
  readonly optionalDependencies?: Dependencies;
  readonly peerDependencies?: Dependencies;
}

/** The fields pnpm takes from publishConfig into the packed manifest (the ones these packages use). */
const PUBLISH_CONFIG_FIELDS = ['exports', 'bin', 'main', 'types'] as const;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** Whether the running package manager turns the workspace manifest into the publish manifest: only pnpm does. */
export function rewritesManifest(userAgent: string | undefined): boolean {
  return userAgent?.startsWith('pnpm/') ?? false;
}

/**
 * The user agent of the package manager that runs this lifecycle script.
 * `npm_config_user_agent` alone cannot say: npm reads an inherited
 * `npm_config_*` variable as its own configuration, so npm run inside a
 * pnpm script reports pnpm's agent. Both set `npm_execpath` to their own
 * entry point, and an npm entry point means npm whatever the agent says.
 */
export function packerUserAgent(env: NodeJS.ProcessEnv): string | undefined {
  const execPath = env.npm_execpath;
  if (execPath !== undefined && execPath !== '' && !/pnpm/i.test(basename(execPath)) && /npm/i.test(basename(execPath))) {
    return `npm/${env.npm_config_user_agent?.match(/\bnpm\/(\S+)/)?.[1] ?? '?'}`;
  }
  return env.npm_config_user_agent;
}

/** The manifest as it would be packed: pnpm applies publishConfig and replaces workspace ranges; anything else packs it as it is. */
export function packedManifest(manifest: Manifest, options: { readonly rewrites: boolean }): Manifest {
  if (!options.rewrites) return manifest;
  const packed: Record<string, unknown> = { ...manifest };
  for (const field of PUBLISH_CONFIG_FIELDS) {
    if (manifest.publishConfig?.[field] !== undefined) packed[field] = manifest.publishConfig[field];
  }
  for (const field of DEPENDENCY_FIELDS) {
    const dependencies = manifest[field];
    if (dependencies === undefined) continue;
    // The version pnpm writes is the workspace package's own; only the range's form matters here.
    packed[field] = Object.fromEntries(Object.entries(dependencies).map(([name, range]) => [name, range.startsWith('workspace:') ? '0.0.0' : range]));
  }
  return packed;
}

/** Every file an exports map or bin points at, as written (`./dist/index.js`). */
export function manifestTargets(manifest: Manifest): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  collect(manifest.exports);
  collect(manifest.bin);
  collect(manifest.main);
  collect(manifest.types);
  return [...new Set(targets)];
}

/** Why the manifest that would be packed is not a publish manifest. */
export function manifestProblems(packed: Manifest): string[] {
  const problems: string[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(packed[field] ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${name} is "${range}", which no registry can resolve`);
    }
  }
  for (const target of manifestTargets(packed)) {
    if (/^\.?\/?src\//.test(target) || (target.endsWith('.ts') && !target.endsWith('.d.ts'))) {
      problems.push(`the manifest points at ${target}, a TypeScript source, not the built JavaScript`);
    }
  }
  return problems;
}

/** Why the package is not built: a target missing, a source without its output, an output older than its source or without one. */
export async function buildProblems(packageDir: string, packed: Manifest): Promise<string[]> {
  const problems: string[] = [];
  const sources = (await filesUnder(join(packageDir, 'src'))).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts') && file !== 'lint-probe.ts');
  const outputs = await filesUnder(join(packageDir, 'dist'));
  const modified = async (path: string) => (await stat(path)).mtimeMs;
  const newestSource = Math.max(0, ...(await Promise.all(sources.map((file) => modified(join(packageDir, 'src', file))))));
  const targets = manifestTargets(packed).map((target) => target.replace(/^\.\//, ''));
  for (const target of targets) {
    const time = await modified(join(packageDir, target)).catch(() => undefined);
    if (time === undefined) problems.push(`${target} does not exist`);
    // A bundle (the CLI's command) has no single source: it must be newer than all of them.
    else if (target.startsWith('dist/') && !sources.includes(target.slice('dist/'.length).replace(/\.(d\.ts|js)$/, '.ts')) && time < newestSource) {
      problems.push(`${target} is older than the newest file in src/`);
    }
  }
  for (const source of sources) {
    const stem = source.slice(0, -'.ts'.length);
    for (const output of [`${stem}.js`, `${stem}.d.ts`]) {
      if (!outputs.includes(output)) problems.push(`src/${source} has no dist/${output}`);
      else if ((await modified(join(packageDir, 'dist', output))) < (await modified(join(packageDir, 'src', source)))) {
        problems.push(`dist/${output} is older than src/${source}`);
      }
    }
  }
  // Generated JavaScript in src/ (the search worker's bundle) is copied to dist/ as it is.
  const copied = (await filesUnder(join(packageDir, 'src'))).filter((file) => file.endsWith('.generated.js'));
  for (const file of copied) {
    if (!outputs.includes(file)) problems.push(`src/${file} has no dist/${file}`);
    else if ((await modified(join(packageDir, 'dist', file))) < (await modified(join(packageDir, 'src', file)))) problems.push(`dist/${file} is older than src/${file}`);
  }
  const stems = new Set([...sources.map((source) => source.slice(0, -'.ts'.length)), ...copied.map((file) => file.slice(0, -'.js'.length))]);
  const bundles = targets.filter((target) => target.startsWith('dist/')).map((target) => target.slice('dist/'.length).replace(/\.(d\.ts|js)$/, ''));
  for (const output of outputs) {
    const stem = output.replace(/(\.d\.ts|\.js)(\.map)?$/, '');
    if (!stems.has(stem) && !bundles.some((bundle) => output.startsWith(bundle))) problems.push(`dist/${output} has no source in src/ (left by an earlier build)`);
  }
  return problems;
}

/** Everything that stops `packageDir` from being packed by the package manager named in `userAgent`. */
export async function publishProblems(packageDir: string, options: { readonly userAgent: string | undefined }): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  const packed = packedManifest(manifest, { rewrites: rewritesManifest(options.userAgent) });
  const problems = manifestProblems(packed);
  // Under npm the targets are the sources: whether they exist says nothing about a build.
  return problems.length > 0 ? problems : buildProblems(packageDir, packed);
}

/** The message printed when packing is refused. */
export function refusal(packageName: string, problems: readonly string[], options: { readonly userAgent: string | undefined }): string {
  const how = rewritesManifest(options.userAgent)
    ? `Build it first (\`pnpm --filter ${packageName} build\`, or \`pnpm -r build\` for every package), then pack or publish again.`
    : 'Release with pnpm (`pnpm publish` in the package folder, or `pnpm -r publish`): npm packs the workspace manifest as it is.';
  const shown = problems.slice(0, 12).map((problem) => `  - ${problem}`);
  if (problems.length > shown.length) shown.push(`  - and ${problems.length - shown.length} more`);
  return [`${packageName} cannot be packed or published as it is:`, ...shown, how].join('\n');
}

/** The files under `folder`, relative to it with `/` separators; none when it does not exist. */
async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(folder, prefix), { withFileTypes: true }).catch(() => [])) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await filesUnder(folder, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const packageDir = process.cwd();
  const userAgent = packerUserAgent(process.env);
  const problems = await publishProblems(packageDir, { userAgent });
  if (problems.length > 0) {
    const { name = packageDir } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Manifest;
    console.error(refusal(name, problems, { userAgent }));
    process.exitCode = 1;
  }
}
