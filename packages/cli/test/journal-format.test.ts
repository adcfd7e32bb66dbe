// The journal's parser on hand-made journals: what it skips, what it refuses
// and how the marks of pending records are read
// (docs/decisions/0002-undo-promises.md, docs/contract.md §4).
import { describe, expect, it } from 'vitest';
import { journalLine, parseJournal, type JournalLine } from '../src/journal-format.ts';
import { UsageError } from '../src/usage-error.ts';

const change = (changeId: string, extra: Record<string, unknown> = {}) => ({
  kind: 'file_change',
  changeId,
  path: `/p/${changeId}.txt`,
  operation: 'update',
  beforeSha256: 'a'.repeat(64),
  afterSha256: 'b'.repeat(64),
  ...extra,
});
const mark = (kind: 'file_change_complete' | 'file_change_abandoned', changeId: string) => ({ kind, changeId });
const text = (...lines: readonly (object | string)[]) => lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');

function refusal(journal: string): UsageError {
  try {
    parseJournal('J', journal);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('the journal was accepted');
}

describe('parseJournal', () => {
  it('skips blank and whitespace-only lines, keeping the line numbers of the file', () => {
    const parsed = parseJournal('J', text('', change('c1'), '   ', '\t', change('c2'), ''));
    expect(parsed.changes.map((entry) => entry.changeId)).toEqual(['c1', 'c2']);
    expect(parsed.lines).toHaveLength(2);
    expect(parsed.torn).toEqual([]);
    expect(refusal(text('', '', 'nonsense')).message).toContain('J line 3 ');
  });

  it.each([
    ['a line cut inside the record', JSON.stringify(change('c2')).slice(0, 40)],
    ['a line cut inside the common start', '{"kind":"file_ch'],
    ['a lone brace', '{'],
  ])('keeps %s as torn with its number, and reads the rest', (_, cut) => {
    const parsed = parseJournal('J', text(change('c1'), cut, change('c3')));
    expect(parsed.changes.map((entry) => entry.changeId)).toEqual(['c1', 'c3']);
    expect(parsed.torn).toEqual([{ torn: cut, number: 2 }]);
    expect(parsed.lines[1]).toEqual({ torn: cut, number: 2 });
    expect(journalLine({ torn: cut, number: 2 })).toBe(`${cut}\n`);
  });

  it.each([
    ['text that is not JSON', 'not json at all', /J line 2 is not a file_change artifact: /],
    ['a JSON value of another kind', JSON.stringify({ kind: 'other', changeId: 'x' }), /J line 2 is not a file_change artifact \(its kind is "other"\)/],
    ['a record without a kind', JSON.stringify({ changeId: 'x' }), /its kind is null/],
    ['null', 'null', /its kind is null/],
    ['a record whose changeId is not a string', JSON.stringify({ kind: 'file_change', changeId: 7 }), /its kind is "file_change"/],
    ['a mark without a changeId', JSON.stringify({ kind: 'file_change_complete' }), /its kind is "file_change_complete"/],
    ['JSON cut short that is not a journal line', '{"other":', /J line 2 is not a file_change artifact: /],
  ])('refuses %s as a usage error naming the line', (_, line, message) => {
    expect(refusal(text(change('c1'), line)).message).toMatch(message);
  });

  it('reads the marks of pending records: unmarked is unconfirmed, abandoned is never made, complete outranks abandoned in either order', () => {
    const parsed = parseJournal(
      'J',
      text(
        change('plain'),
        change('open', { pending: true }),
        change('done', { pending: true }),
        mark('file_change_complete', 'done'),
        change('dropped', { pending: true }),
        mark('file_change_abandoned', 'dropped'),
        change('both', { pending: true }),
        mark('file_change_complete', 'both'),
        mark('file_change_abandoned', 'both'),
        change('both2', { pending: true }),
        mark('file_change_abandoned', 'both2'),
        mark('file_change_complete', 'both2'),
        mark('file_change_abandoned', 'plain'),
      ),
    );
    expect(parsed.changes.map((entry) => entry.changeId)).toEqual(['plain', 'open', 'done', 'dropped', 'both', 'both2']);
    expect([...parsed.unconfirmed]).toEqual(['open']);
    expect([...parsed.abandoned]).toEqual(['dropped']);
    expect(parsed.lines).toHaveLength(13);
  });

  it('writes each line as one JSON line that reads back as itself', () => {
    const lines: JournalLine[] = [change('c1', { pending: true }) as JournalLine, mark('file_change_complete', 'c1')];
    const written = lines.map((line) => journalLine(line)).join('');
    expect(written.endsWith('\n')).toBe(true);
    expect(written.split('\n')).toHaveLength(3);
    expect(parseJournal('J', written).lines).toEqual(lines);
  });
});
