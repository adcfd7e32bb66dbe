/** Where the next of some literals starts in a file's bytes, at or after `from`; -1 when none is left. */
export type LiteralFinder = (from: number) => number;

/**
 * A finder over one literal (`Buffer.indexOf`), or over several for a
 * pattern that is an alternation of literals (`TODO|FIXME`): the earliest
 * of their next places, each looked up again only once it is passed.
 */
export function literalFinder(bytes: Buffer, literals: Buffer | readonly Buffer[]): LiteralFinder {
  if (Buffer.isBuffer(literals)) return (from) => bytes.indexOf(literals, from);
  const next = literals.map(() => -2);
  return (from) => {
    let earliest = -1;
    for (let index = 0; index < literals.length; index += 1) {
      let at = next[index] as number;
      if (at !== -1 && at < from) {
        at = bytes.indexOf(literals[index] as Buffer, from);
        next[index] = at;
      }
      if (at !== -1 && (earliest === -1 || at < earliest)) earliest = at;
    }
    return earliest;
  };
}
