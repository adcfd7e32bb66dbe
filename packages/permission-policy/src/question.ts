import { createCommandClassifier } from '@openwork/bash-classifier';
import type { PermissionDecision } from '@openwork/tool-contract';
import type { PolicyRequest } from './request.ts';

/** A command longer than this (as long as a reason quotes whole), or of more than one line, is outlined before it is shown. */
const LONG_COMMAND_CHARS = 200;

/** Characters a terminal or a client may not show as themselves: controls (an escape sequence, a carriage return), bidi overrides, zero-width ones. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const hidden = (text: string): boolean => [...text.matchAll(UNSEEN)].some(([char]) => char !== '\n' && char !== '\t');

/** The text with every character that would not show as itself written as `\u{…}`; line breaks and tabs stay. */
export function visible(text: string): string {
  return text.replace(UNSEEN, (char) => (char === '\n' || char === '\t' ? char : `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`));
}

const listed = (items: readonly string[]): string => (items.length === 0 ? '(none)' : items.map(visible).join(', '));

/**
 * The question put to a person (docs/security.md): the tool, why it asks,
 * and for a command the whole of it, never cut. A long or multi-line
 * command is preceded by every program it names and every file its
 * redirections write, so that the end of a long line (`… | sh`) is not
 * missed; the reason, which the model also reads, may quote it clipped,
 * and says so.
 */
export async function askQuestion(request: PolicyRequest, decision: PermissionDecision): Promise<string> {
  const asked = visible(`${request.definition.name}: ${decision.reason}`);
  const { effect } = request;
  if (effect.kind !== 'execute') return `${asked}. Allow?`;
  const { command } = effect;
  const long = command.length > LONG_COMMAND_CHARS || command.includes('\n');
  if (!long && !hidden(command) && decision.reason.includes(JSON.stringify(command))) return `${asked}. Allow?`;
  const lines = [`${asked}.`];
  if (long) {
    const outline = (await createCommandClassifier()).outline(command);
    lines.push(`Programs it runs: ${listed(outline.programs)}`, `Files its redirections write: ${listed(outline.writes)}`);
    if (!outline.complete) lines.push('The parser could not read all of it, so these lists may be incomplete: read the command itself.');
  }
  const shown = hidden(command) ? '; characters that would not show are written \\u{…}' : '';
  lines.push(`The whole command (${command.length} characters${shown}):`, visible(command), 'Allow?');
  return lines.join('\n');
}
