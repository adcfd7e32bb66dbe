/** What JSON.stringify leaves as it is among the characters escaped here. */
const JSON_LEAVES = /[\u007f-\u009f\u2028\u2029]/gu;

/**
 * Characters that would break a name out of its line in the model text or
 * hide what it is: C0 and C1 controls, DEL, and the Unicode line and
 * paragraph separators.
 */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/**
 * A file name or path as the model text shows it: as it is, unless it holds
 * a control character (a newline would make one entry look like two) or
 * begins with a double quote; then as a JSON string, quotes and escapes
 * included, which is also how the model writes that path in a call.
 * The structured data always keeps the real name.
 */
export function escapeName(name: string): string {
  let quote = name.startsWith('"');
  for (let index = 0; index < name.length && !quote; index += 1) quote = isControl(name.charCodeAt(index));
  if (!quote) return name;
  return JSON.stringify(name).replace(JSON_LEAVES, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
