import { beforeAll, describe, expect, it } from 'vitest';
import { beyondLabel, decideCorpus, loadCorpus, type CorpusResult } from './corpus/corpus.ts';
import { headline } from './corpus/report.ts';

/**
 * The commands real coding agents ran, each with the label of what it does
 * (test/corpus/README.md), decided as the permission policy decides them in
 * a fresh repository. `pnpm bench:commands` prints the rates in full.
 */
let results: CorpusResult[];
/** The hard cases, decided with bash's own reading of each line. */
let hardCases: CorpusResult[];

beforeAll(async () => {
  const corpus = await loadCorpus();
  // Every line bash reads as written: an allow here is an upper bound of bash's (DecideCorpusOptions).
  results = await decideCorpus(corpus, { reading: 'as-written' });
  // The hard cases are where bash's reading matters: decided as a session decides them.
  hardCases = await decideCorpus(corpus.filter((entry) => entry.source === 'hard case'));
}, 600_000);

describe('the command corpus', () => {
  it('lets no command run beyond its label, in either mode', () => {
    const beyond = results.filter((result) => beyondLabel(result).length > 0).map((result) => `${result.entry.label}: ${result.entry.command}`);
    expect(beyond).toEqual([]);
  });

  it("holds the rates the classifier reached: reads run in default mode, writes inside in acceptEdits (with bash's own reading of each line: pnpm bench)", () => {
    const { read, writeInside } = headline(results);
    expect(read).toBeGreaterThanOrEqual(0.97);
    expect(writeInside).toBeGreaterThanOrEqual(0.8);
  });

  it('asks for every hard case in default mode: each is the dangerous neighbour of a form that runs on its own', () => {
    const hard = hardCases;
    expect(hard.length).toBeGreaterThan(30);
    expect(hard.filter((result) => result.default.verdict === 'allow').map((result) => result.entry.command)).toEqual([]);
  });
});
