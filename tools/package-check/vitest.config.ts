import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// test/global-setup.ts packs and installs the tarballs once for every test file.
export default mergeConfig(shared, { test: { globalSetup: ['test/global-setup.ts'] } });
