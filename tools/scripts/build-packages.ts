// Builds every package of the workspace in one process: the same outputs as
// each package's own `build` script (`pnpm -r build`), without starting a
// compiler per package. The packages are compiled one after another,
// dependencies first (a package's types come from its dependencies' dist/),
// each with its own tsconfig.build.json, and the programs share the files no
// build writes to: the standard library, node_modules' declarations and the
// dist/ declarations of the packages built before, each parsed once.
// Then, as the packages' scripts do: fs-backend's search worker bundle is
// made when stale and copied to its dist/, and the command is bundled.
//   pnpm build-packages        (or: tsx tools/scripts/build-packages.ts)
import { execFile } from 'node:child_process';
import { copyFile, readFile, readdir, rm } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);
const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url));
const packagesDirectory = join(workspaceRoot, 'packages');
/** fs-backend's search worker bundle, a build output in its src/ that its dist/ gets a copy of. */
const workerBundle = 'src/node/worker-source.generated.js';

interface WorkspacePackage {
  readonly folder: string;
  readonly name: string;
  readonly dependencies: readonly string[];
}

/** The packages under packages/, each after the workspace packages it depends on. */
export async function packagesInBuildOrder(): Promise<WorkspacePackage[]> {
  const found: WorkspacePackage[] = [];
  for (const folder of (await readdir(packagesDirectory)).sort()) {
    const manifest = JSON.parse(await readFile(join(packagesDirectory, folder, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
    found.push({ folder, name: manifest.name, dependencies: Object.keys(manifest.dependencies ?? {}) });
  }
  const byName = new Map(found.map((entry) => [entry.name, entry]));
  const ordered: WorkspacePackage[] = [];
  const visiting = new Set<string>();
  const visit = (entry: WorkspacePackage): void => {
    if (ordered.includes(entry)) return;
    if (visiting.has(entry.name)) throw new Error(`the workspace packages depend on each other in a cycle through ${entry.name}`);
    visiting.add(entry.name);
    for (const dependency of entry.dependencies) {
      const inWorkspace = byName.get(dependency);
      if (inWorkspace !== undefined) visit(inWorkspace);
    }
    ordered.push(entry);
  };
  found.forEach(visit);
  return ordered;
}

/** A compiler host whose parsed files outlive one program; a package's own sources are parsed anew. */
function sharingHost(options: ts.CompilerOptions, cache: Map<string, ts.SourceFile>, ownSources: string): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (fileName.startsWith(ownSources)) return parse(fileName, languageVersionOrOptions, onError, shouldCreate);
    const settings = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${fileName}\0${settings.languageVersion}\0${String(settings.impliedNodeFormat)}\0${String(settings.jsDocParsingMode)}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const parsed = parse(fileName, languageVersionOrOptions, onError, shouldCreate);
    if (parsed !== undefined) cache.set(key, parsed);
    return parsed;
  };
  return host;
}

/** Compiles one package as `tsc -p tsconfig.build.json` does; the diagnostics, empty when it built. */
function compile(directory: string, cache: Map<string, ts.SourceFile>): readonly ts.Diagnostic[] {
  const configFile = join(directory, 'tsconfig.build.json');
  const configHost: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  const config = ts.getParsedCommandLineOfConfigFile(configFile, undefined, configHost);
  if (config === undefined) throw new Error(`${relative(workspaceRoot, configFile)} could not be read`);
  if (config.errors.length > 0) return config.errors;
  const host = sharingHost(config.options, cache, join(directory, 'src') + '/');
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, projectReferences: config.projectReferences ?? [] });
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
}

/** Builds every package; the diagnostics of those that failed, empty when all built. */
export async function buildPackages(options: { readonly log: (line: string) => void }): Promise<readonly ts.Diagnostic[]> {
  const cache = new Map<string, ts.SourceFile>();
  const ordered = await packagesInBuildOrder();
  const failed: ts.Diagnostic[] = [];
  for (const entry of ordered) {
    const directory = join(packagesDirectory, entry.folder);
    await rm(join(directory, 'dist'), { recursive: true, force: true });
    // fs-backend's own script makes the bundle when it is missing or stale, as the package's build does.
    if (entry.folder === 'fs-backend') await run(process.execPath, ['--import', 'tsx', 'scripts/bundle-search-worker.ts'], { cwd: directory });
    const diagnostics = compile(directory, cache);
    failed.push(...diagnostics);
    if (entry.folder === 'fs-backend') await copyFile(join(directory, workerBundle), join(directory, 'dist', 'node', basename(workerBundle)));
    if (entry.folder === 'cli') await run(process.execPath, ['build-bin.mjs'], { cwd: directory });
    options.log(`${entry.name}: ${diagnostics.length === 0 ? 'built' : `${diagnostics.length} ${diagnostics.length === 1 ? 'error' : 'errors'}`}`);
  }
  return failed;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const diagnostics = await buildPackages({ log: (line) => console.log(line) });
  if (diagnostics.length > 0) {
    const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => workspaceRoot, getNewLine: () => '\n' };
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
    process.exitCode = 1;
  }
}
