import { describe, expect, it } from 'vitest';
import * as root from '../src/index.ts';
import * as worker from '../src/worker/index.ts';

describe('@openwork/tree-search public API', () => {
  it('pins the runtime exports of every subpath', () => {
    expect(Object.keys(root).sort()).toEqual([
      'HEAD_BYTES',
      'InProcessRun',
      'InProcessWalkers',
      'SearchOpenError',
      'abortedError',
      'compareUtf8',
      'literalUnclosedClasses',
      'openChainAsync',
      'openTarget',
      'parseExcludesFile',
      'parseIgnoreCase',
      'runTreeSearch',
      'searchIgnore',
      'throwIfAborted',
    ]);
    expect(Object.keys(worker).sort()).toEqual(['CacheBudget', 'HEAD_BYTES', 'ListingCache', 'SearchCache', 'SearchOpenError', 'openTarget', 'serveSearchWorker']);
  });
});
