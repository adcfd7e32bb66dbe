import type { FileChangeArtifact } from '@openwork/tool-contract';
import { encodeIn, sha256 } from '../common/text.ts';

const isDigest = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/**
 * Why a recorded change cannot be undone as it stands, or undefined when its
 * kind and digests agree (docs/contract.md §4.5): a create records no content
 * before it and a digest after it; a modify records both digests, and the
 * original it restores has exactly the digest from before. A journal is a
 * file someone could have written: undo restores nothing it did not record.
 */
export function entryDisagreement(change: FileChangeArtifact): string | undefined {
  if (typeof change.absolutePath !== 'string' || !change.absolutePath.startsWith('/')) return 'its absolutePath is not an absolute path';
  if (change.encoding !== undefined && change.encoding !== 'utf-16le' && change.encoding !== 'utf-16be') return `its encoding ${JSON.stringify(change.encoding)} is not one undo writes`;
  if (change.change === 'create') {
    if (change.beforeSha256 !== null || change.originalContent !== null) return 'a create records no file before it, but this one records content from before';
    if (!isDigest(change.afterSha256)) return 'a create records the digest of the file it made, and this one has none';
    return undefined;
  }
  if (change.change === 'modify') {
    if (!isDigest(change.afterSha256)) return 'a modify records the digest of the file after it; this one records none, so undo would create a file that never existed';
    if (!isDigest(change.beforeSha256) || typeof change.originalContent !== 'string') return 'a modify records the content and digest from before it, and this one lacks them';
    if (sha256(encodeIn(change.originalContent, change.encoding)) !== change.beforeSha256) return 'its originalContent does not have its beforeSha256, so it is not the content the file had';
    return undefined;
  }
  return `its change ${JSON.stringify(change.change)} is neither create nor modify`;
}
