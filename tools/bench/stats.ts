/** Small statistics for the benchmark tables. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export const ms = (value: number): string => (value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
export const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}×`;
export const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;
