import { builtinTools, type BuiltinSession } from '@openwork/builtin-tools';
import { modeSelection, type PermissionMode } from '@openwork/permission-policy';
import { Registry, type FinalizedToolset } from '@openwork/toolset-finalizer';

/** What this binary knows (docs/design.md §3). */
export function createRegistry(): Registry<BuiltinSession> {
  const registry = new Registry<BuiltinSession>();
  for (const tool of builtinTools()) registry.register(tool);
  return registry;
}

/** readOnly leaves write, edit and bash out: not advertised, not callable. */
export function finalizeFor(session: BuiltinSession, mode: PermissionMode): FinalizedToolset<BuiltinSession> {
  return createRegistry().finalize(session, modeSelection(mode));
}
