import { describe, expect, it } from 'vitest';
import { staleBashGrammarFiles } from '../bash-grammar.ts';

describe('the bash grammar builtin-tools ships', () => {
  it('is the wasm and licence of the tree-sitter-bash devDependency, unchanged (refresh: pnpm --filter @openwork/builtin-tools grammar)', async () => {
    expect(await staleBashGrammarFiles()).toEqual([]);
  });
});
