/** docs/design.md §8: what the caller will do with the path. */
export type PathAccess = 'read' | 'write';

/** docs/design.md §8: `must_exist` for reads and edits, `may_create` for a write that may make the file. */
export type PathIntent = 'must_exist' | 'may_create';
