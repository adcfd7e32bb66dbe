import { adaptTool, type DynTool, type Tool, type ToolRisk, type ToolSessionContext } from '@openwork/tool-contract';
import type { TObject } from 'typebox';
import { FinalizedToolset, type FinalizeOptions } from './finalized-toolset.ts';
import { registrationProblem, toolLabel } from './registration-problem.ts';

/** What an agent may use out of what the registry knows (docs/design.md §3). */
export interface ToolSelection {
  /** Only these model-facing names; default: every registered tool. */
  readonly names?: readonly string[];
  /** Only tools of these risks (e.g. `['read']` for a read-only agent). */
  readonly risks?: readonly ToolRisk[];
  /** Leave these names out. */
  readonly exclude?: readonly string[];
}

/**
 * What this binary knows: every tool registered, adapted once. It is not
 * what an agent may call; `select` makes that choice and `finalize` binds it.
 */
export class Registry<Session extends ToolSessionContext = ToolSessionContext> {
  readonly #entries: DynTool<Session>[] = [];

  /**
   * Registers a tool; a malformed tool, or a duplicate name or id, is a
   * programmer error whose message names the tool and why (docs/contract.md §1.1).
   */
  register<Input extends TObject, Output>(tool: Tool<Input, Output, Session> | DynTool<Session>): this {
    const problem = registrationProblem(tool);
    if (problem !== undefined) throw new TypeError(`Registry.register: cannot register ${toolLabel(tool)}: ${problem}`);
    const entry = 'prepare' in tool ? tool : adaptTool(tool);
    const { name, id } = entry.definition;
    for (const existing of this.#entries) {
      const clash = existing.definition.name === name ? 'name' : existing.definition.id === id ? 'id' : undefined;
      if (clash === undefined) continue;
      const why = clash === 'name' ? 'a model calls a tool by its name, so names are unique in a registry' : 'ids are unique in a registry: results and journals name a tool by its id';
      throw new Error(`Registry.register: cannot register ${toolLabel(tool)}: ${toolLabel(existing)} is already registered with that ${clash}; ${why}; register one of them, or give one another ${clash}`);
    }
    this.#entries.push(entry);
    return this;
  }

  /** Every registered entry, in registration order. */
  get entries(): readonly DynTool<Session>[] {
    return [...this.#entries];
  }

  /**
   * The entries an agent may use, in registration order; a tool that
   * accompanies another is left out when that one is. An unknown name in
   * `names` is a programmer error.
   */
  select(selection: ToolSelection = {}): readonly DynTool<Session>[] {
    const known = new Set(this.#entries.map((entry) => entry.definition.name));
    for (const name of [...(selection.names ?? []), ...(selection.exclude ?? [])]) {
      if (!known.has(name)) {
        const field = selection.names?.includes(name) === true ? 'names' : 'exclude';
        throw new Error(`Registry.select: ${field} names tool ${JSON.stringify(name)}, which is not registered; the registered tools are ${[...known].join(', ') || 'none'}`);
      }
    }
    const names = selection.names ? new Set(selection.names) : undefined;
    const risks = selection.risks ? new Set(selection.risks) : undefined;
    const exclude = new Set(selection.exclude ?? []);
    const chosen = this.#entries.filter(({ definition }) => {
      if (names && !names.has(definition.name)) return false;
      if (risks && !risks.has(definition.risk)) return false;
      return !exclude.has(definition.name);
    });
    // A companion (bash_output beside bash) goes only where the tool it works with goes.
    const present = new Set(chosen.map((entry) => entry.definition.name));
    return chosen.filter((entry) => entry.accompanies === undefined || present.has(entry.accompanies));
  }

  /** Selects and binds in one step: the toolset an agent's session gets, with its permission policy (docs/design.md §6). */
  finalize(session: Session, selection: ToolSelection = {}, options: FinalizeOptions = {}): FinalizedToolset<Session> {
    return FinalizedToolset.finalize(this.select(selection), session, options);
  }
}
