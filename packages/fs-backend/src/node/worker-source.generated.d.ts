// The declaration of a build output: worker-source.generated.js is made by
// scripts/bundle-search-worker.ts (the build, and every test run, make it;
// it is not in git). docs/decisions/0035-worker-bundle-built.md.
/** The search worker's code, one CommonJS script for `new Worker(source, { eval: true })`. */
export declare const SEARCH_WORKER_SOURCE: string;
