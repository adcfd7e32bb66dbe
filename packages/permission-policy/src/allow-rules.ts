/**
 * A command prefix a person allowed in advance, as Claude Code users write
 * them: `bash:npm test` lets `npm test` and `npm test -- --watch` run
 * without asking. It is matched word for word on the parsed command line,
 * never on the raw text, and every simple command of a line must match a
 * rule or the read-only list: `npm test; rm -rf /` still asks.
 */
export interface AllowRule {
  /** The rule as a decision names it, without a trailing `:*`: `bash:npm test`. */
  readonly text: string;
  readonly tool: 'bash';
  /** The words a simple command must start with. */
  readonly prefix: readonly string[];
}

export type AllowRuleParse = { readonly ok: true; readonly rule: AllowRule } | { readonly ok: false; readonly message: string };

/** Characters a prefix word may hold: nothing the shell would read as syntax, a quote, an expansion or a glob. */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

const FORM = 'an allow rule is "bash:" and the first words of a command, e.g. "bash:npm test"';

/** Reads one rule (`bash:npm test`, `bash:npm test:*`), or says what is wrong with it. */
export function parseAllowRule(text: string): AllowRuleParse {
  const colon = text.indexOf(':');
  const tool = colon === -1 ? text : text.slice(0, colon);
  if (tool !== 'bash') return { ok: false, message: `${JSON.stringify(text)}: only bash rules exist; ${FORM}` };
  // `:*` is how Claude Code spells a prefix; here every rule is one.
  const body = text.slice(colon + 1).replace(/:\*$/, '').trim();
  const prefix = body === '' ? [] : body.split(/\s+/);
  if (prefix.length === 0) return { ok: false, message: `${JSON.stringify(text)} names no command: it would approve every command; pass --yes for that` };
  const odd = prefix.find((word) => !PLAIN_WORD.test(word));
  if (odd !== undefined) return { ok: false, message: `${JSON.stringify(text)}: ${JSON.stringify(odd)} is not a plain word (letters, digits and _ . / : = @ % + , - only); ${FORM}` };
  return { ok: true, rule: { text: `bash:${prefix.join(' ')}`, tool: 'bash', prefix } };
}

/** What `decision.rule` says for a command a rule let run. */
export function allowRuleName(rule: AllowRule): string {
  return `allow:${rule.text}`;
}
