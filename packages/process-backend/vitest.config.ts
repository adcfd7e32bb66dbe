import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Some of these tests replace modules (vi.mock): each test file gets a process of its own, so no mock reaches another file.
export default mergeConfig(shared, { test: { isolate: true } });
