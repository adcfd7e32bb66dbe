import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The few tests that need a real process start the command from a bundle
// built once (test/global-setup.ts). On a loaded 2-core machine a start can
// still take seconds: the bound is on a test that hangs, not on speed.
export default mergeConfig(shared, { test: { testTimeout: 120_000, hookTimeout: 120_000, globalSetup: ['test/global-setup.ts'], maxWorkers: 3 } });
