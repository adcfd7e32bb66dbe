import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import type { PermissionDecision } from '@openwork/tool-contract';
import { bashReader, createCommandClassifier, decideBashCommand, gitConfigReader, type BashReader, type BashReading } from '../../src/index.ts';

/** What a command does, by the rule of its form: reads, writes inside the project, runs project code, uses the network, or reaches outside. */
export type Label = 'READ' | 'WRITE-INSIDE' | 'EXEC' | 'NET' | 'OUTSIDE';

export interface CorpusCommand {
  readonly command: string;
  readonly label: Label;
  /** Why it has its label: the form that decided it. */
  readonly why: readonly string[];
  /** `auto`, or `auto, hand-checked`, or `hand` for the hard cases. */
  readonly by: string;
  /** The agent and model that ran it, or `hard case`. */
  readonly source: string;
  /** The project directory of the agent that ran it; mapped onto the benchmark's repository. */
  readonly projectRoot: string;
}

export interface CorpusResult {
  readonly entry: CorpusCommand;
  readonly default: PermissionDecision;
  readonly acceptEdits: PermissionDecision;
}

const here = new URL('./', import.meta.url);

async function readLines(name: string): Promise<CorpusCommand[]> {
  const text = await readFile(new URL(name, here), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusCommand);
}

/** The commands real agents ran (each once), then the hard cases written for this benchmark. */
export async function loadCorpus(): Promise<CorpusCommand[]> {
  return [...(await readLines('agent-commands.jsonl')), ...(await readLines('hard-cases.jsonl'))];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The command with the agent's project directory written as the benchmark's repository. */
export function mapProject(command: string, projectRoot: string, repository: string): string {
  return command.replace(new RegExp(`${escape(projectRoot)}(?![\\w.-])`, 'g'), repository);
}

export interface DecideCorpusOptions {
  /**
   * `bash` (default): bash itself reads each line, as a session does.
   * `as-written`: bash is taken to read each line as written. decideBashCommand
   * asks bash last, and its reading can only turn an allow into an ask, so
   * every command allowed with bash's reading is allowed this way too: a
   * check that nothing runs beyond its label holds for the real reading when
   * it holds for this one, at a fraction of the cost (no bash start per line).
   * The rates this way are an upper bound; `pnpm bench` prints bash's.
   */
  readonly reading?: 'bash' | 'as-written';
}

/**
 * Decides every command in default and acceptEdits mode, as the permission
 * policy does (the same protected directories), in a fresh git repository
 * with no symlinks that stands for the agent's project.
 */
export async function decideCorpus(entries: readonly CorpusCommand[], options: DecideCorpusOptions = {}): Promise<CorpusResult[]> {
  const repository = await realpath(await mkdtemp(join(tmpdir(), 'openwork-corpus-')));
  try {
    execFileSync('git', ['init', '-q', repository]);
    const filesystem = new NodeFileSystem();
    const paths = await PathGuard.create({ workingDirectory: repository, probe: filesystem });
    // The readings run no command: a process group is enough, and each skips a cgroup's set-up and removal.
    const processes = new PipeProcessBackend({ containment: 'process_group' });
    const environment = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const reader: BashReader = options.reading === 'as-written' ? asWritten : onceEach(bashReader(processes, environment, { paths }));
    const decision = {
      filesystem,
      gitConfig: gitConfigReader(processes, environment, { paths }),
      bashReader: reader,
      protectedDirectories: ['.openwork'],
    };
    const classifier = await createCommandClassifier();
    const results: CorpusResult[] = [];
    for (const entry of entries) {
      const effect = { kind: 'execute' as const, command: mapProject(entry.command, entry.projectRoot, repository), cwd: repository };
      const inDefault = await decideBashCommand(classifier, paths, effect, 'default', decision);
      const inAcceptEdits = await decideBashCommand(classifier, paths, effect, 'acceptEdits', decision);
      results.push({ entry, default: inDefault, acceptEdits: inAcceptEdits });
    }
    return results;
  } finally {
    await rm(repository, { recursive: true, force: true });
  }
}

/** bash's reading taken to be the line itself (DecideCorpusOptions). */
const asWritten: BashReader = (command) => Promise.resolve({ ok: true, text: command });

/**
 * The same bash reading, asked once per line: both modes ask bash about the
 * same text, and bash's reading does not depend on the mode.
 */
function onceEach(read: BashReader): BashReader {
  const readings = new Map<string, Promise<BashReading>>();
  return (command, signal) => {
    let reading = readings.get(command);
    if (reading === undefined) {
      reading = read(command, signal);
      readings.set(command, reading);
    }
    return reading;
  };
}

/** A decision that lets the command run beyond its label: anything but a read in default mode, anything but a read or an inside write in acceptEdits. */
export function beyondLabel(result: CorpusResult): readonly ('default' | 'acceptEdits')[] {
  const found: ('default' | 'acceptEdits')[] = [];
  const { label } = result.entry;
  if (result.default.verdict === 'allow' && label !== 'READ') found.push('default');
  if (result.acceptEdits.verdict === 'allow' && label !== 'READ' && label !== 'WRITE-INSIDE') found.push('acceptEdits');
  return found;
}
