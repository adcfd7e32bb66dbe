import type { PolicyRequest } from './request.ts';

/**
 * A rule that refuses calls whatever else allows them, even `--yes`:
 * `write` refuses every call of the write tool, `bash` every command,
 * `bash:git push` every command line in which those words follow each other.
 */
export interface DenyRule {
  /** The rule as written, without a trailing `:*`: `bash:git push`, `write`. */
  readonly text: string;
  readonly tool: string;
  /** The words that must appear in a command line; empty refuses every call of the tool. */
  readonly prefix: readonly string[];
  /** The settings file the rule comes from, for the denial's reason. */
  readonly source?: string;
}

export type DenyRuleParse = { readonly ok: true; readonly rule: DenyRule } | { readonly ok: false; readonly message: string };

/** The tools this package's policy decides for; a deny rule naming another tool would never match. */
const TOOLS: readonly string[] = ['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash'];

const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

/** Reads one deny rule (`bash:rm`, `bash:git push:*`, `write`), or says what is wrong with it. */
export function parseDenyRule(text: string, source?: string): DenyRuleParse {
  const colon = text.indexOf(':');
  const tool = colon === -1 ? text.trim() : text.slice(0, colon);
  if (!TOOLS.includes(tool)) return { ok: false, message: `${JSON.stringify(text)}: a deny rule is a tool's name (${TOOLS.join(', ')}) or "bash:" and words of a command` };
  const body = colon === -1 ? '' : text.slice(colon + 1).replace(/:\*$/, '').trim();
  if (colon !== -1 && tool !== 'bash') return { ok: false, message: `${JSON.stringify(text)}: only bash rules take words; write ${JSON.stringify(tool)} to refuse every ${tool} call` };
  const prefix = body === '' ? [] : body.split(/\s+/);
  const odd = prefix.find((word) => !PLAIN_WORD.test(word));
  if (odd !== undefined) return { ok: false, message: `${JSON.stringify(text)}: ${JSON.stringify(odd)} is not a plain word (letters, digits and _ . / : = @ % + , - only)` };
  const rule = { text: prefix.length === 0 ? tool : `bash:${prefix.join(' ')}`, tool, prefix };
  return { ok: true, rule: source === undefined ? rule : { ...rule, source } };
}

/**
 * The words of a command line, read bluntly: quotes and backslashes removed,
 * split at blanks and at every character bash gives a meaning to. A deny rule
 * would rather refuse `echo rm` than miss `r\m`, `"rm"`, `$(rm …)` or `/bin/rm`.
 */
function bluntWords(command: string): string[] {
  return command
    .replace(/\\\n/g, '')
    .replace(/["'\\]/g, '')
    .split(/[\s;&|()<>`${}!]+/)
    .filter((word) => word !== '');
}

const baseName = (word: string): string => word.slice(word.lastIndexOf('/') + 1);

function commandMatches(command: string, prefix: readonly string[]): boolean {
  const words = bluntWords(command);
  for (let start = 0; start + prefix.length <= words.length; start += 1) {
    const matched = prefix.every((part, index) => {
      const word = words[start + index] ?? '';
      // A program may be named by its path: /usr/bin/rm is rm.
      return word === part || (index === 0 && !part.includes('/') && baseName(word) === part);
    });
    if (matched) return true;
  }
  return false;
}

/** The first deny rule that refuses this call. */
export function matchingDenyRule(request: PolicyRequest, rules: readonly DenyRule[]): DenyRule | undefined {
  return rules.find((rule) => {
    if (rule.tool !== request.definition.name) return false;
    if (rule.prefix.length === 0) return true;
    return request.effect.kind === 'execute' && commandMatches(request.effect.command, rule.prefix);
  });
}

/** What `decision.rule` says for a call a deny rule refused. */
export function denyRuleName(rule: DenyRule): string {
  return `deny:${rule.text}`;
}
