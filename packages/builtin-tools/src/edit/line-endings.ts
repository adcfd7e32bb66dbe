/** Which line endings a text uses. */
export type LineEndings = 'lf' | 'crlf' | 'mixed' | 'none';

export function lineEndings(text: string): LineEndings {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf === 0) return 'lf';
  return lf === 0 ? 'crlf' : 'mixed';
}

/** `\n` → `\r\n`, leaving existing `\r\n` alone. */
export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** `\r\n` → `\n`. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
