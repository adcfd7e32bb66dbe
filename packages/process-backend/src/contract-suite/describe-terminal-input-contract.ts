import { isToolError } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import type { ProcessBackend } from '../process-backend.ts';
import { bash, minimalEnv, startRun } from './contract-helpers.ts';

/**
 * `terminalInput` (docs/contract.md §2.5, bash_write): on a terminal, what is
 * typed reaches the command (a prompt's answer, then Ctrl-C) and a write
 * after the end returns false; a backend without a terminal refuses the
 * request as `invalid_input` before anything starts.
 */
export function describeTerminalInputContract(getBackend: () => ProcessBackend, getCwd: () => string, options: { readonly terminal: boolean }): void {
  const env = minimalEnv();

  describe('terminal input', () => {
    if (options.terminal) {
      it('types into the terminal: a prompt is answered, Ctrl-C interrupts, a write after the end returns false', async () => {
        let write: (data: string) => boolean = () => false;
        const script = 'read -r -p "name? " name; echo "hello, $name"; trap "echo interrupted; exit 7" INT; echo waiting; while :; do sleep 0.05; done';
        const run = startRun(getBackend(), { argv: bash(script), cwd: getCwd(), env, terminalInput: (given) => (write = given) });
        await run.seen('name? ');
        expect(write('openwork\n')).toBe(true);
        await run.seen('waiting');
        expect(write('\u0003')).toBe(true);
        const result = await run.result;
        expect(result).toMatchObject({ status: 'exited', exitCode: 7 });
        expect(result.stdout.text).toContain('hello, openwork\r\n');
        expect(result.stdout.text).toContain('interrupted');
        expect(write('late\n')).toBe(false);
      });
    } else {
      it('refuses a request with terminalInput as invalid_input, and starts nothing', async () => {
        let handed = false;
        const refused: unknown = await getBackend()
          .run({ argv: bash('echo started'), cwd: getCwd(), env, signal: new AbortController().signal, terminalInput: () => (handed = true) })
          .catch((error: unknown) => error);
        expect(isToolError(refused) ? [refused.kind, refused.message] : refused).toEqual(['invalid_input', expect.stringContaining('terminal')]);
        expect(handed).toBe(false);
        expect(getBackend().liveGroups()).toEqual([]);
      });
    }
  });
}
