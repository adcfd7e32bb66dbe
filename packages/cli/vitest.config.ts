import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Each CLI test spawns the command (a TypeScript loader, a session, real
// processes) several times; on a loaded 2-core machine a spawn can take
// seconds. The bound is on a test that hangs, not on speed.
export default mergeConfig(shared, { test: { testTimeout: 120_000, hookTimeout: 120_000 } });
