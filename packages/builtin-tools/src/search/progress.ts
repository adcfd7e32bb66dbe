import type { TreeSearchProgress } from '@openwork/tree-search';
import type { ToolProgress } from '@openwork/tool-contract';

/** Files between two progress reports of a search. */
export const PROGRESS_EVERY = 1000;

/**
 * The file system tells a search's counts as they grow; the model's progress
 * gets a message at each thousand files, one per thousand even when a batch
 * jumps past several.
 */
export function progressReporter(send: (event: ToolProgress) => void): (progress: TreeSearchProgress) => void {
  let reported = 0;
  return (progress) => {
    while (progress.files >= reported + PROGRESS_EVERY) {
      reported += PROGRESS_EVERY;
      send({ kind: 'message', message: `searched ${reported} files in ${progress.directories} directories; ${progress.results} results so far` });
    }
  };
}
