import { randomBytes } from 'node:crypto';

const encoder = new TextEncoder();

/** Longest part of the target's name kept in a temp name, in UTF-8 bytes, so the temp name fits NAME_MAX. */
const maxBaseBytes = 200;

/**
 * `.<base>.<random>.tmp`, beside the target (docs/design.md §8: create the temp file in
 * the verified parent and rename within it). Hidden, and recognisable as ours.
 */
export function tempName(base: string): string {
  let kept = '';
  for (const character of base) {
    if (encoder.encode(kept + character).byteLength > maxBaseBytes) break;
    kept += character;
  }
  return `.${kept}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Whether a directory entry name looks like one of our temp files. */
export function isTempName(name: string): boolean {
  return /^\..*\.[0-9a-f]{12}\.tmp$/.test(name);
}

/** The target name a temp name was made for (cut to the kept prefix for a very long name), or undefined. */
export function tempTargetName(name: string): string | undefined {
  return isTempName(name) ? name.slice(1, -'.000000000000.tmp'.length) : undefined;
}
