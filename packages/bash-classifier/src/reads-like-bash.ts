import type { BashReader } from './bash-reading.ts';
import type { ClassifyOptions, CommandClassifier, ParsedCommand } from './classifier/index.ts';
import type { Redirection } from './classifier/redirects.ts';

const show = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

function redirectionText(redirection: Redirection | undefined): string {
  if (redirection === undefined) return 'none';
  return `${redirection.descriptor ?? ''}${redirection.operator} ${redirection.target}`;
}

/** The first place two readings of one simple command differ, naming the word; undefined when they agree. */
function commandDifference(index: number, ours: ParsedCommand, bash: ParsedCommand): string | undefined {
  const program = show(bash.argv[0] ?? ours.argv[0] ?? '');
  const words = Math.max(ours.argv.length, bash.argv.length);
  for (let word = 0; word < words; word += 1) {
    const mine = ours.argv[word];
    const theirs = bash.argv[word];
    if (mine === theirs) continue;
    if (theirs === undefined) return `the classifier read ${show(mine ?? '')} as word ${word} of command ${index + 1}, which bash does not pass to ${program}`;
    return `bash passes ${show(theirs)} as word ${word} of ${program} (command ${index + 1}), where the classifier read ${mine === undefined ? 'no word' : show(mine)}`;
  }
  const redirections = Math.max(ours.redirections.length, bash.redirections.length);
  for (let at = 0; at < redirections; at += 1) {
    const mine = redirectionText(ours.redirections[at]);
    const theirs = redirectionText(bash.redirections[at]);
    if (mine !== theirs) return `bash applies the redirection ${show(theirs)} to ${program} (command ${index + 1}), where the classifier read ${show(mine)}`;
  }
  return undefined;
}

/**
 * Bash is the parser of record (docs/security.md): the line as bash prints
 * it must classify the same, command by command, word by word, with the
 * same redirections, as the line itself did. Undefined when they agree,
 * else why the line asks.
 */
export async function bashDisagreement(
  classifier: CommandClassifier,
  command: string,
  expected: readonly ParsedCommand[],
  options: ClassifyOptions & { readonly reader: BashReader | undefined; readonly signal?: AbortSignal },
): Promise<string | undefined> {
  if (options.reader === undefined) return 'bash was not asked how it reads the line';
  const reading = await options.reader(command, options.signal);
  if (!reading.ok) return reading.reason;
  const { reader: _reader, signal: _signal, ...classify } = options;
  const again = classifier.classify(reading.text, classify);
  if (again.verdict !== 'allow') return `bash reads the line as ${show(reading.text.trim())}, which asks: ${again.reason}`;
  if (again.commands.length !== expected.length) {
    return `bash reads ${again.commands.length} commands in the line (${show(reading.text.trim())}), the classifier ${expected.length}`;
  }
  for (const [index, ours] of expected.entries()) {
    const bash = again.commands[index];
    if (bash === undefined) return `bash reads no command ${index + 1}`;
    const difference = commandDifference(index, ours, bash);
    if (difference !== undefined) return difference;
  }
  return undefined;
}
