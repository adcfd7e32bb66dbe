import { randomInt } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { CallAborted, isToolError } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import type { ProcessBackend } from '../process-backend.ts';
import { bash, eventually, killLeftovers, minimalEnv, pidsWithMarker, startRun } from './contract-helpers.ts';

/** This process's scratch directories still present (the backend runs in this process, so its pid is in each name). */
function scratchLeft(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`openwork-scratch-${process.pid}-`));
}

/** The value after `label=` on a line of the output. */
function field(text: string, label: string): string {
  return new RegExp(`${label}=(\\S*)`).exec(text)?.[1] ?? '';
}

/**
 * The scratch directory (docs/decisions/0027): a request with
 * `scratchDirectory: true` gets TMPDIR, TMP and TEMP pointing at a fresh
 * 0700 directory of its own, where `mktemp` and `sort`'s run files land, and
 * which is gone once the command and everything it started have ended.
 */
export function describeScratchContract(getBackend: () => ProcessBackend, getCwd: () => string, options: { readonly processGroupsOnly: boolean }): void {
  const env = minimalEnv();

  describe('scratch directory', () => {
    it('is a fresh 0700 directory per command, where mktemp and sort write, removed after the exit', async () => {
      const script = [
        'echo "tmpdir=$TMPDIR tmp=$TMP temp=$TEMP mode=$(stat -c %a "$TMPDIR") entries=$(ls -A "$TMPDIR" | wc -l)"',
        'echo "mktemp=$(mktemp)"',
        // sort spills its runs into TMPDIR while its input is still open: seen there before the input ends.
        '( seq 1 20000; while [ ! -e "$TMPDIR/go" ]; do sleep 0.02; done ) | sort -S 1K > "$TMPDIR/sorted" &',
        'n=0; until ls "$TMPDIR" | grep -q "^sort" || [ $n -gt 500 ]; do sleep 0.02; n=$((n+1)); done',
        'echo "sortrun=$(ls "$TMPDIR" | grep "^sort" | head -1)"; touch "$TMPDIR/go"; wait; echo "sorted=$(wc -l < "$TMPDIR/sorted")"',
      ].join('\n');
      const results = await Promise.all([0, 1].map(() => startRun(getBackend(), { argv: bash(script), cwd: getCwd(), env, scratchDirectory: true }).result));
      const seen = results.map((result) => result.stdout.text);
      const directories = seen.map((text) => field(text, 'tmpdir'));
      for (const [index, text] of seen.entries()) {
        const directory = directories[index] ?? '';
        expect(directory.startsWith(`${tmpdir()}/openwork-scratch-`), text).toBe(true);
        expect(field(text, 'tmp')).toBe(directory);
        expect(field(text, 'temp')).toBe(directory);
        expect(field(text, 'mode')).toBe('700');
        expect(field(text, 'entries')).toBe('0');
        expect(field(text, 'mktemp').startsWith(`${directory}/tmp.`)).toBe(true);
        expect(field(text, 'sortrun')).toMatch(/^sort/);
        expect(field(text, 'sorted')).toBe('20000');
        expect(existsSync(directory), 'removed once the command ended').toBe(false);
      }
      expect(directories[0]).not.toBe(directories[1]);
      expect(scratchLeft()).toEqual([]);
    });

    it('is not given unless asked for: the environment stays the request’s', async () => {
      const result = await startRun(getBackend(), { argv: bash('echo "tmpdir=${TMPDIR-unset}"'), cwd: getCwd(), env }).result;
      expect(field(result.stdout.text, 'tmpdir')).toBe('unset');
    });

    for (const ending of ['timeout', 'cancel'] as const) {
      it(`is removed after a ${ending}`, async () => {
        const marker = `${process.pid}${randomInt(1_000_000, 10_000_000)}`;
        const run = startRun(getBackend(), { argv: bash(`echo data > "$TMPDIR/f"; echo "tmpdir=$TMPDIR ready"; sleep 30.${marker}; :`), cwd: getCwd(), env, scratchDirectory: true, killGraceMs: 300 });
        try {
          await run.seen('ready');
          run.controller.abort(new CallAborted(ending === 'timeout' ? 'timed_out' : 'cancelled'));
          const result = await run.result;
          expect(result.status).toBe(ending === 'timeout' ? 'timed_out' : 'cancelled');
          const directory = field(result.stdout.text, 'tmpdir');
          expect(directory).not.toBe('');
          expect(existsSync(directory)).toBe(false);
        } finally {
          killLeftovers(`30.${marker}`);
        }
      });
    }

    it('leaves nothing when the command cannot start', async () => {
      const error: unknown = await startRun(getBackend(), { argv: ['openwork-no-such-program'], cwd: getCwd(), env, scratchDirectory: true }).result.catch((caught: unknown) => caught);
      expect(isToolError(error) ? error.kind : error).toBe('spawn_failed');
      expect(scratchLeft()).toEqual([]);
    });

    if (options.processGroupsOnly) return;

    it('outlives no setsid child that kept writing there: the child is ended first, then the directory removed', async ({ skip }) => {
      if ((await getBackend().containment()).kind !== 'cgroup') return skip('only a cgroup reaches a child that left the process group');
      const marker = `writer${process.pid}${randomInt(1_000_000, 10_000_000)}`;
      const writer = `setsid bash --noprofile --norc -c 'while :; do date > "$TMPDIR/$RANDOM"; sleep 0.01; done; : ${marker}' > /dev/null 2>&1 &`;
      const run = startRun(getBackend(), { argv: bash(`${writer}\nwhile [ "$(ls "$TMPDIR" | wc -l)" -lt 3 ]; do sleep 0.02; done; echo "tmpdir=$TMPDIR"`), cwd: getCwd(), env, scratchDirectory: true, killGraceMs: 300 });
      try {
        await eventually(() => pidsWithMarker(marker).length > 0, 10_000, 'the setsid writer');
        const result = await run.result;
        expect(result.status).toBe('exited');
        expect(result.processesEndedAfterExit).toBeGreaterThanOrEqual(1);
        expect(pidsWithMarker(marker)).toEqual([]);
        const directory = field(result.stdout.text, 'tmpdir');
        expect(directory).not.toBe('');
        expect(existsSync(directory)).toBe(false);
      } finally {
        killLeftovers(marker);
      }
    });
  });
}
