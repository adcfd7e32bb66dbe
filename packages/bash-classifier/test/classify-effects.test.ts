import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashReader, classify, createCommandClassifier, type ClassifyContext } from '../src/index.ts';

let root: string;
let context: Omit<ClassifyContext, 'mode'>;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'openwork-classify-')));
  await writeFile(join(root, 'f.txt'), 'a\n');
  const filesystem = new NodeFileSystem();
  const paths = await PathGuard.create({ workingDirectory: root, probe: filesystem });
  const processes = new PipeProcessBackend({ containment: 'process_group' });
  const environment = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  context = { paths, filesystem, classifier: await createCommandClassifier(), bashReader: bashReader(processes, environment, { paths }), protectedDirectories: ['.openwork'] };
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('classify(command, context)', () => {
  it('names what a read-only line reads and runs, and lets it run', async () => {
    const effects = await classify('grep -n a f.txt | head -1', { ...context, mode: 'default' });
    expect(effects).toMatchObject({ runs: ['grep', 'head'], reads: ['f.txt'], writes: [], understood: true, verdict: 'allow', rule: 'read_only:grep, read_only:head' });
  });

  it('names the targets of a write: allowed in acceptEdits, asked in default mode with what would make it run', async () => {
    const allowed = await classify('sed -i s/a/b/ f.txt', { ...context, mode: 'acceptEdits' });
    expect(allowed).toMatchObject({ runs: ['sed'], writes: ['f.txt'], understood: true, verdict: 'allow' });
    const asked = await classify('sed -i s/a/b/ f.txt', { ...context, mode: 'default' });
    expect(asked.verdict).toBe('ask');
    expect(asked.reason).toMatch(/acceptEdits/);
  });

  it('asks for a write outside the roots, naming the path, and still lists the redirection it writes', async () => {
    const effects = await classify('echo hi > /etc/openwork-probe', { ...context, mode: 'acceptEdits' });
    expect(effects.verdict).toBe('ask');
    expect(effects.writes).toEqual(['/etc/openwork-probe']);
    expect(effects.reason).toContain('/etc/openwork-probe is not inside a writable root');
    expect(effects.reason).toContain('a writable root that holds it, would let it run');
  });

  it('says when it did not understand the line: its lists are then not the whole story', async () => {
    const effects = await classify('python3 script.py > out.txt', { ...context, mode: 'acceptEdits' });
    expect(effects).toMatchObject({ runs: ['python3'], reads: [], writes: ['out.txt'], understood: false, verdict: 'ask' });
    expect(effects.reason).toContain('python3 is not on the read-only list or the filesystem gate; an allow rule "bash:python3" would let it run');
  });

  it('reports a line an allow rule approved as an approved ask, with the rule', async () => {
    const effects = await classify('make test', { ...context, mode: 'default', allowRules: [{ name: 'allow:bash:make test', prefix: ['make', 'test'] }] });
    expect(effects).toMatchObject({ verdict: 'ask', approved: true, rule: 'allow:bash:make test' });
  });
});
