import { describe, expect, it } from 'vitest';
import * as policy from '../src/index.ts';

describe('the package entry point', () => {
  it('exports the policy, its modes and the ask flow, and nothing that touches the host', () => {
    expect(Object.keys(policy).sort()).toEqual([
      'DEFAULT_APPROVAL',
      'EMPTY_USER_SETTINGS',
      'NOBODY_TO_ASK',
      'NOT_APPROVED',
      'PERMISSION_MODES',
      'ProjectSettingsSchema',
      'SETTINGS_DIRECTORY',
      'SETTINGS_FILE',
      'UserSettingsSchema',
      'approvalWays',
      'approveEveryAsk',
      'askNobody',
      'authorizer',
      'decide',
      'isPermissionMode',
      'isTrustedProject',
      'modeSelection',
      'parseAllowRule',
      'parseDenyRule',
      'parseSettings',
      'parseUserSettings',
      'passThroughVariables',
      'sessionPolicy',
      'toolsetInstructions',
      'withAnswer',
      'withTrustedProject',
    ]);
  });
});
