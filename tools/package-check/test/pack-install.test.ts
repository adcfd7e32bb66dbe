import { execFile } from 'node:child_process';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkPackage, createPackageFromTarballData, type ResolutionKind } from '@arethetypeswrong/core';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { installInFreshProject, measureInstall, PACKAGES, type InstallSize } from '../src/index.ts';

const run = promisify(execFile);
const here = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(here, 'node_modules', '.bin', name);

/** The resolutions the esm-only profile of arethetypeswrong's command leaves out: a require() of the packages. */
const ESM_ONLY_IGNORES: readonly ResolutionKind[] = ['node10', 'node16-cjs'];
/** Entry points that are assets, not modules: attw has no types to find there. */
const ASSET_ENTRYPOINTS: Readonly<Record<string, readonly string[]>> = { 'bash-classifier': ['./tree-sitter-bash.wasm'] };

const base = inject('packageCheckBase');
const tarballs: ReadonlyMap<string, string> = new Map(Object.entries(inject('packageCheckTarballs')));
/** Every package installed: what a product running the command has. */
const project = inject('packageCheckProject');
/** builtin-tools, bash-classifier, fs-backend, process-backend and toolset-finalizer: what a product embedding the tools has. */
const library = inject('packageCheckLibrary');

describe('the packages install from their tarballs', () => {
  it('packs every package, with only dist/, README and LICENSE besides the manifest, and the bash grammar in bash-classifier', async () => {
    expect([...tarballs.keys()].sort()).toEqual([...PACKAGES].sort());
    for (const [name, tarball] of tarballs) {
      const { stdout } = await run('tar', ['-tzf', tarball]);
      const files = stdout.trim().split('\n');
      expect(files, name).toContain('package/package.json');
      expect(files, name).toContain('package/README.md');
      expect(files, name).toContain('package/LICENSE');
      expect(files, name).toContain('package/dist/index.js');
      expect(files, name).toContain('package/dist/index.d.ts');
      const assets = name === 'bash-classifier' ? ['package/grammar/LICENSE', 'package/grammar/README.md', 'package/grammar/tree-sitter-bash.wasm'] : [];
      expect(files.filter((file) => !/^package\/(package\.json|README\.md|LICENSE|dist\/.*)$/.test(file)).sort(), name).toEqual(assets);
      expect(files.some((file) => file.endsWith('.test.js')), name).toBe(false);
      if (name === 'fs-backend') expect(files, name).toContain('package/dist/node/worker-source.generated.js');
    }
  });

  it('passes publint and arethetypeswrong for each package', async () => {
    for (const [name, tarball] of tarballs) {
      const publint = await run(bin('publint'), ['run', tarball, '--strict', '--level', 'warning']);
      expect(publint.stdout, name).not.toMatch(/error|warning/i);
      // arethetypeswrong's checker itself, one TypeScript for every package (its command starts one per package), with
      // the command's esm-only profile: the packages are ESM ("type": "module"), a require() of them is not offered.
      const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(tarball))), { excludeEntrypoints: [...(ASSET_ENTRYPOINTS[name] ?? [])] });
      if (!analysis.types) throw new Error(`arethetypeswrong found no types in ${name}`);
      const problems = analysis.problems.filter((problem) => !('resolutionKind' in problem) || !ESM_ONLY_IGNORES.includes(problem.resolutionKind));
      expect(problems, name).toEqual([]);
    }
  }, 300_000);

  it('a consumer builds a toolset from the installed packages and calls read and bash', async () => {
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project });
    const result = JSON.parse(stdout) as {
      names: string[];
      read: { content: string };
      bash: { status: string; stdout: { text: string } };
      bashDecision: { verdict: string; rule: string };
      write: { kind: string; message: string };
      grep: unknown;
    };
    expect(result.names).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'list', 'bash']));
    expect(result.read.content).toBe('hello from a tarball\n');
    // Searched by the worker bundle that fs-backend's build puts in dist/ (docs/decisions/0035-worker-bundle-built.md).
    expect(result.grep).toMatchObject({ files: ['hello.txt'], truncated: false });
    expect(result.bash).toMatchObject({ status: 'exited', stdout: { text: '21\n' } });
    // The permission policy, with its bash classifier, works from the installed tarballs.
    expect(result.bashDecision).toMatchObject({ verdict: 'allow', rule: 'read_only:cat, read_only:wc' });
    expect(result.write).toEqual({ kind: 'denied', message: "write was not run: write writes new.txt; nobody could be asked; mode 'acceptEdits', or an ask that reaches a person (authorizer's ask) would let it run" });
  }, 60_000);

  it('the installed openwork-tools command runs from built JavaScript', async () => {
    const { stdout } = await run('npx', ['--no-install', 'openwork-tools', 'tools', '--json'], { cwd: project });
    const listed = JSON.parse(stdout) as { tools: Array<{ name: string }> } | Array<{ name: string }>;
    const tools = Array.isArray(listed) ? listed : listed.tools;
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read', 'bash']));
    const installedBin = join(project, 'node_modules', '@openwork', 'cli', 'dist', 'openwork-tools.js');
    const { stdout: text } = await run(process.execPath, [installedBin, 'call', 'read', '{"path":"consumer.mjs"}'], { cwd: project });
    expect(text).toContain('builtinTools');
    // The bundle finds the bash grammar in the installed bash-classifier: the classifier allowed the command on its own.
    const { stdout: bash } = await run(process.execPath, [installedBin, 'call', 'bash', '{"command":"cat consumer.mjs | wc -l"}', '--json'], { cwd: project });
    expect(JSON.parse(bash)).toMatchObject({ status: 'ok', decision: { verdict: 'allow', rule: 'read_only:cat, read_only:wc' } });
    // No TypeScript loader in the installed tree.
    await expect(run(process.execPath, ['-e', "import('tsx').then(() => process.exit(3), () => process.exit(0))"], { cwd: project })).resolves.toBeDefined();
  }, 60_000);
});

const nameOf = (id: string) => id.slice(0, id.lastIndexOf('@'));

describe('what an install brings (docs/benchmarks.md, "Install size")', () => {
  let sizes: { readonly library: InstallSize; readonly command: InstallSize };

  beforeAll(async () => {
    sizes = { library: await measureInstall(library), command: await measureInstall(project) };
  }, 60_000);

  it('a product embedding the tools gets neither node-pty nor the tree-sitter-bash package, and stays under 35 MB', () => {
    const names = sizes.library.packages.map(nameOf);
    expect(names).toEqual(expect.arrayContaining(['@openwork/builtin-tools', '@openwork/bash-classifier', '@openwork/process-backend', 'web-tree-sitter']));
    expect(names).not.toContain('node-pty');
    expect(names).not.toContain('tree-sitter-bash');
    expect(sizes.library.diskBytes).toBeLessThan(35_000_000);
  });

  it('node-pty is an optional peer of process-backend and an optional dependency of the command, whose --pty uses it', async () => {
    const manifest = async (name: string) =>
      JSON.parse(await readFile(join(project, 'node_modules', '@openwork', name, 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    const processBackend = await manifest('process-backend');
    expect(processBackend.peerDependencies?.['node-pty']).toBeDefined();
    expect(processBackend.peerDependenciesMeta?.['node-pty']).toEqual({ optional: true });
    expect({ ...processBackend.dependencies, ...processBackend.optionalDependencies }).not.toHaveProperty('node-pty');
    const cli = await manifest('cli');
    expect(cli.optionalDependencies?.['node-pty']).toBeDefined();
    expect(sizes.command.packages.map(nameOf)).not.toContain('tree-sitter-bash');
  });

  it('the bash classifier loads its grammar from bash-classifier in the embedding install', async () => {
    const script = [
      "const { createCommandClassifier } = await import('@openwork/bash-classifier');",
      'const classifier = await createCommandClassifier();',
      "console.log(JSON.stringify(classifier.classify('cat a.txt | wc -l', { mode: 'default' })));",
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: library });
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'allow', list: 'read_only' });
  });
});

/** What the MCP SDK needs to serve over HTTP, and the SDK's own HTTP and client modules. */
const HTTP_STACK = /node_modules\/(express|express-rate-limit|hono|@hono\/node-server|cors|eventsource|eventsource-parser|raw-body|content-type|jose|pkce-challenge|cross-spawn)\/|@modelcontextprotocol\/sdk\/dist\/(esm|cjs)\/(client\/|server\/(auth\/|middleware\/|express|sse|streamableHttp|webStandardStreamableHttp))/;

describe('the stdio MCP command', () => {
  it("loads none of the MCP SDK's HTTP stack, from node_modules or from its bundle", async () => {
    const installedBin = join(project, 'node_modules', '@openwork', 'cli', 'dist', 'openwork-tools.js');
    const trace = join(base, 'mcp-loads.txt');
    const child = spawn(process.execPath, ['--import', './trace-loads.mjs', installedBin, 'mcp'], {
      cwd: project,
      env: { ...process.env, OPENWORK_TRACE_LOADS: trace },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let output = '';
    const listed = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"id":2')) resolve();
      });
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-check', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await listed;
    child.stdin.end();
    await exited;
    expect(output).toContain('"name":"bash"');
    const loaded = (await readFile(trace, 'utf8')).split('\n').filter((line) => line !== '');
    // The trace sees the bundle itself, so it could see anything else loaded.
    expect(loaded.some((path) => path.endsWith('/@openwork/cli/dist/openwork-tools.js'))).toBe(true);
    expect(loaded.filter((path) => HTTP_STACK.test(path))).toEqual([]);
    // The SDK is bundled: esbuild names each module it inlines in a comment, so the bundle lists what it holds.
    const bundle = await readFile(installedBin, 'utf8');
    expect(bundle).toMatch(/@modelcontextprotocol\/sdk\/dist\/esm\/server\/stdio\.js/);
    expect(bundle.split('\n').filter((line) => line.startsWith('// ') && HTTP_STACK.test(line))).toEqual([]);
  }, 60_000);
});

describe('the HTTP MCP command', () => {
  it('loads the SDK’s Streamable HTTP server from node_modules and answers an initialize', async () => {
    const installedBin = join(project, 'node_modules', '@openwork', 'cli', 'dist', 'openwork-tools.js');
    const token = 'package-check-token-0123456789';
    const child = spawn(process.execPath, [installedBin, 'mcp', '--http', '0'], { cwd: project, env: { ...process.env, OPENWORK_MCP_TOKEN: token }, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const at = /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1];
          if (at !== undefined) resolve(at);
        });
        void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-check', version: '0' } } }),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"serverInfo":{"name":"openwork-tools"');
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
    }
  }, 60_000);
});

describe('a project on any major of ai the adapter supports installs it', () => {
  // The time allows for an install ended on its timeout and tried once more (src/pack.ts).
  it.each([5, 6, 7])('ai %i: npm resolves the optional peer, and the adapter loads', async (major) => {
    const target = join(base, `ai-${major}`);
    const tarball = (name: string) => tarballs.get(name) ?? name;
    // npm refused ai 5 and 6 (ERESOLVE) while the peer range was ">=7".
    await installInFreshProject(target, [tarball('tool-contract'), tarball('toolset-finalizer'), `ai@${major}`]);
    const script = [
      "import { createRequire } from 'node:module';",
      "const { aiSdkTools } = await import('@openwork/toolset-finalizer/ai-sdk');",
      "const { version } = createRequire(`${process.cwd()}/`)('ai/package.json');",
      'console.log(JSON.stringify({ version, adapter: typeof aiSdkTools }));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: target });
    const loaded = JSON.parse(stdout) as { version: string; adapter: string };
    expect(loaded.version.split('.')[0]).toBe(String(major));
    expect(loaded.adapter).toBe('function');
  }, 330_000);
});
