/** The closed set of error kinds a tool result may carry (docs/contract.md §3). */
export const ERROR_KINDS = [
  'invalid_input',
  'unknown_tool',
  'denied',
  'outside_root',
  'protected',
  'not_found',
  'already_exists',
  'is_directory',
  'not_a_directory',
  'not_a_file',
  'symlink_loop',
  'name_too_long',
  'too_large',
  'binary',
  'invalid_utf8',
  'no_match',
  'ambiguous_match',
  'no_change',
  'stale',
  'conflict',
  'cancelled',
  'timed_out',
  'spawn_failed',
  'permission_denied',
  'io',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

const known: ReadonlySet<string> = new Set(ERROR_KINDS);

export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && known.has(value);
}
