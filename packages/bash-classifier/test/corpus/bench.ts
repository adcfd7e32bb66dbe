// pnpm bench:commands: how often the bash classifier lets the commands real
// coding agents ran go without asking, per label and per source, and every
// command it would let run beyond its label (docs/testing.md).
//   pnpm bench:commands [--asking N] [--label READ] [--mode default]
import { decideCorpus, loadCorpus } from './corpus.ts';
import { corpusReport } from './report.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};

const results = await decideCorpus(await loadCorpus());
for (const line of corpusReport(results, { asking: Number(flag('--asking') ?? 25) })) console.log(line);
const label = flag('--label');
if (label !== undefined) {
  const mode = flag('--mode') === 'acceptEdits' ? 'acceptEdits' : 'default';
  console.log('', `${label} asking in ${mode}`);
  for (const result of results) {
    if (result.entry.label === label && result[mode].verdict !== 'allow') console.log(`${JSON.stringify(result.entry.command).slice(0, 160)}\n    ${result[mode].reason.slice(-160)}`);
  }
}
