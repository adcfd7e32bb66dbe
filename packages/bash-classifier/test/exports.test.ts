import { describe, expect, it } from 'vitest';
import * as classifier from '../src/index.ts';

describe('the package entry point', () => {
  it('exports the classifier, the decision, the readers and the environments, nothing else', () => {
    expect(Object.keys(classifier).sort()).toEqual([
      'READ_ONLY_PROGRAMS',
      'autoRunEnvironment',
      'bashReader',
      'classify',
      'commandEnvironment',
      'createCommandClassifier',
      'decideBashCommand',
      'gitConfigReader',
      'pathOutsideRoots',
      'quoteCommand',
    ]);
  });
});
