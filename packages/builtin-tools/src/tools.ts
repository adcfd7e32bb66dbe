import { adaptTool, type DynTool } from '@openwork/tool-contract';
import { bashTool } from './bash/bash.ts';
import { bashKillTool } from './bash-kill/bash-kill.ts';
import { bashOutputTool } from './bash-output/bash-output.ts';
import { bashWriteTool } from './bash-write/bash-write.ts';
import { editTool } from './edit/edit.ts';
import { globTool } from './glob/glob.ts';
import { grepTool } from './grep/grep.ts';
import { listTool } from './list/list.ts';
import { readTool } from './read/read.ts';
import type { BuiltinSession } from './session.ts';
import { writeTool } from './write/write.ts';

/** The built-in tools in their advertised order (docs/design.md §9). */
export function builtinTools(): DynTool<BuiltinSession>[] {
  return [
    adaptTool(readTool), adaptTool(writeTool), adaptTool(editTool), adaptTool(grepTool), adaptTool(globTool), adaptTool(listTool),
    adaptTool(bashTool),
    // The companions of bash: a toolset holds them only beside bash (docs/contract.md §2.5).
    adaptTool(bashOutputTool),
    adaptTool(bashKillTool),
    adaptTool(bashWriteTool),
  ];
}
