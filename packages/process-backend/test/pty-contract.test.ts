import { describe, expect, it } from 'vitest';
import { describeProcessBackendContract } from '../src/contract-suite/index.ts';
import { PtyProcessBackend } from '../src/pty/index.ts';

describe('PtyProcessBackend availability', () => {
  it('loads node-pty here, so a broken install fails loudly', async () => {
    expect(await new PtyProcessBackend().availability()).toEqual({ available: true });
  });
});

describeProcessBackendContract('PtyProcessBackend', (options) => new PtyProcessBackend({ killGraceMs: 500, ...options }), { terminal: true });
