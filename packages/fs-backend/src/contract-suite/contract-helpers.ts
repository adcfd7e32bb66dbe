import { createHash } from 'node:crypto';
import { PathGuard, type CheckedPath, type PathAccess, type PathIntent } from '@openwork/path-guard';
import { isToolError, type ErrorKind } from '@openwork/tool-contract';
import { expect } from 'vitest';
import type { FileSystemFixture } from './fixture.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function text(data: Uint8Array | null): string | null {
  return data === null ? null : decoder.decode(data);
}

export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(typeof content === 'string' ? bytes(content) : content).digest('hex');
}

/** One test's world: the fixture and a guard whose working directory is the fixture's root. */
export interface ContractWorld {
  readonly fixture: FileSystemFixture;
  readonly guard: PathGuard;
  /** Absolute path of a name relative to the root. */
  readonly at: (relative: string) => string;
  readonly resolve: (relative: string, access: PathAccess, intent: PathIntent) => Promise<CheckedPath>;
}

export async function makeWorld(fixture: FileSystemFixture): Promise<ContractWorld> {
  const guard = await PathGuard.create({ workingDirectory: fixture.root, probe: fixture.fs });
  return {
    fixture,
    guard,
    at: (relative) => (relative === '' ? fixture.root : `${fixture.root}/${relative}`),
    resolve: (relative, access, intent) => guard.resolvePath(relative, access, intent),
  };
}

/** Awaits a promise that must fail with a ToolError of this kind; returns its message. */
export async function expectToolError(promise: Promise<unknown>, kind: ErrorKind): Promise<string> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(isToolError(caught), `expected a ToolError ${kind}, got ${String(caught)}`).toBe(true);
  if (!isToolError(caught)) return '';
  expect(caught.kind, caught.message).toBe(kind);
  return caught.message;
}

/** Temp files of an atomic write are `.<name>.<hex>.tmp`; none may be left behind. */
export async function expectNoTempFiles(fixture: FileSystemFixture, directory: string): Promise<void> {
  const names = await fixture.list(directory);
  expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
}
