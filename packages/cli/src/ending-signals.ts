/**
 * The signals that end a command the way SIGTERM does (docs/contract.md §4): the
 * call is cancelled, its result printed, no child outlives it. SIGHUP (a
 * closed terminal, a dropped SSH session) would otherwise kill the command
 * at once and leave its children running.
 */
export const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type EndingSignal = (typeof ENDING_SIGNALS)[number];

/** 128 + the signal's number, as a shell reports a command that a signal ended. */
export const EXIT_STATUS: Readonly<Record<EndingSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
