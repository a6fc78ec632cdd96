import { appendFileSync } from 'node:fs';

/**
 * The median of a non-empty list of measurements (the mean of the two middle ones for an even
 * count), so every bench reports the same statistic.
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One line of the table `bench/report.ts` prints: a figure, its baseline from the same run, and the goal. */
export interface SummaryRow {
  bench: string;
  measure: string;
  /** The figure as printed (`2.41 s`, `812 req/s`). */
  value: string;
  /** What it is compared with, measured in the same run (`bare micromark 6.10 s`). */
  baseline: string;
  /** value against baseline (`0.40x`), or `-`. */
  ratio: string;
  goal: string;
}

/**
 * Hands a row to `bench/report.ts` when it runs this bench (it sets `KIT_BENCH_SUMMARY` to a file
 * that collects one JSON row a line); run alone, a bench prints its own lines only.
 */
export function summary(row: SummaryRow): void {
  const file = process.env.KIT_BENCH_SUMMARY;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}
