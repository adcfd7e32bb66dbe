import type { CliOptions } from './args.ts';
import type { CommandIo } from './call-command.ts';
import { createSession } from './session.ts';
import { finalizeFor } from './toolset.ts';

/** `openwork-tools tools [--json]`: the finalized definitions, as the model sees them. */
export async function toolsCommand(options: CliOptions, io: CommandIo): Promise<number> {
  const { session, host } = await createSession(options);
  const toolset = finalizeFor(session, options.mode);
  if (options.json) {
    io.stdout(`${JSON.stringify({ tools: toolset.genericDefinitions() })}\n`);
  } else {
    for (const definition of toolset.definitions) {
      io.stdout(`${definition.name.padEnd(6)} ${definition.id.padEnd(18)} ${definition.risk.padEnd(8)} ${definition.description.split('\n')[0] ?? ''}\n`);
    }
  }
  await host.dispose();
  return 0;
}
