/** A word quoted for a POSIX shell, to be pasted into a command line as it is. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
