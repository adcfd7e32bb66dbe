import { describe, expect, it } from 'vitest';
import * as policy from '../src/index.ts';

describe('the package entry point', () => {
  it('exports the policy, its modes and the ask flow, and nothing that touches the host', () => {
    expect(Object.keys(policy).sort()).toEqual([
      'NOBODY_TO_ASK',
      'NOT_APPROVED',
      'PERMISSION_MODES',
      'SETTINGS_DIRECTORY',
      'SETTINGS_FILE',
      'approveEveryAsk',
      'askNobody',
      'authorizer',
      'decide',
      'isPermissionMode',
      'modeSelection',
      'parseAllowRule',
      'parseSettings',
      'sessionPolicy',
      'withAnswer',
    ]);
  });
});
