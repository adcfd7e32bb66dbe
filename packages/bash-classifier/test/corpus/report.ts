import { beyondLabel, type CorpusResult, type Label } from './corpus.ts';

const LABELS: readonly Label[] = ['READ', 'WRITE-INSIDE', 'EXEC', 'NET', 'OUTSIDE'];

/** The part of a reason after the quoted command. */
const why = (reason: string) => reason.replace(/^bash runs "(?:[^"\\]|\\.)*"(?: … .*? characters in all\))?: /s, '').replace(/ \(in ".*$/s, '');

const percent = (part: number, whole: number) => (whole === 0 ? '   -  ' : `${((100 * part) / whole).toFixed(1).padStart(5)} %`);

/** The share of a group that runs without asking in each mode. */
function rateLine(name: string, group: readonly CorpusResult[]): string {
  const inDefault = group.filter((result) => result.default.verdict === 'allow').length;
  const inAcceptEdits = group.filter((result) => result.acceptEdits.verdict === 'allow').length;
  return `${name.padEnd(64)} ${String(group.length).padStart(5)}   default ${percent(inDefault, group.length)}   acceptEdits ${percent(inAcceptEdits, group.length)}`;
}

/** The headline rates: READ commands that run in default mode, WRITE-INSIDE ones in acceptEdits. */
export function headline(results: readonly CorpusResult[]): { read: number; writeInside: number; beyond: number } {
  const reads = results.filter((result) => result.entry.label === 'READ');
  const writes = results.filter((result) => result.entry.label === 'WRITE-INSIDE');
  return {
    read: reads.filter((result) => result.default.verdict === 'allow').length / reads.length,
    writeInside: writes.filter((result) => result.acceptEdits.verdict === 'allow').length / writes.length,
    beyond: results.filter((result) => beyondLabel(result).length > 0).length,
  };
}

/** The benchmark's printed report: rates per label and per source, what asks most, and every command allowed beyond its label. */
export function corpusReport(results: readonly CorpusResult[], options: { readonly asking?: number } = {}): string[] {
  const { read, writeInside, beyond } = headline(results);
  const lines = [
    `${results.length} commands, each once`,
    `READ run without asking (default):          ${(100 * read).toFixed(1)} %`,
    `WRITE-INSIDE run without asking (acceptEdits): ${(100 * writeInside).toFixed(1)} %`,
    `allowed beyond their label:                 ${beyond}`,
    '',
    'per label',
  ];
  for (const label of LABELS) lines.push(rateLine(label, results.filter((result) => result.entry.label === label)));
  const sources = [...new Set(results.map((result) => result.entry.source))].sort();
  for (const label of ['READ', 'WRITE-INSIDE'] as const) {
    lines.push('', `${label} per source`);
    for (const source of sources) {
      const group = results.filter((result) => result.entry.source === source && result.entry.label === label);
      if (group.length > 0) lines.push(rateLine(source, group));
    }
  }
  for (const result of results) {
    const modes = beyondLabel(result);
    if (modes.length > 0) lines.push(`BEYOND LABEL (${result.entry.label}, allowed in ${modes.join(' and ')}): ${JSON.stringify(result.entry.command).slice(0, 200)}`);
  }
  const asking = options.asking ?? 0;
  if (asking > 0) {
    const reasons = new Map<string, number>();
    const count = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    for (const result of results) {
      if (result.entry.label === 'READ' && result.default.verdict !== 'allow') count(`READ: ${why(result.default.reason).slice(0, 140)}`);
      if (result.entry.label === 'WRITE-INSIDE' && result.acceptEdits.verdict !== 'allow') count(`WRITE-INSIDE: ${why(result.acceptEdits.reason).slice(0, 140)}`);
    }
    lines.push('', `what asks most (first ${asking})`);
    for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, asking)) lines.push(`${String(n).padStart(5)}  ${reason}`);
  }
  return lines;
}
