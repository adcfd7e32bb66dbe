import { describe, expect, it } from 'vitest';
import { staleBashGrammarFiles } from '../bash-grammar.ts';

describe('the bash grammar bash-classifier ships', () => {
  it('is the wasm and licence of the tree-sitter-bash devDependency, unchanged (refresh: pnpm --filter @openwork/bash-classifier grammar)', async () => {
    expect(await staleBashGrammarFiles()).toEqual([]);
  });
});
