// A figure against its floor, measured in the same run: the floor (A) and the code under test (B) take turns,
// A B A B, each run the same length and load, so a machine that gets busier or quieter during the bench moves
// both sides alike. The figure is the median of the B runs over the median of the A runs; each pair (Aᵢ, Bᵢ)
// is shown too, so a ratio that swings from pair to pair is visible as noise.
//
// BENCH_ROUNDS (default 2) sets the number of pairs: 3 gives A B A B A B.
import { formatRatio } from './context.js';

export interface Alternation<F, S = F> {
  /** The floor's runs, in order. */
  floor: F[];
  /** The measured runs, in order: subject[i] ran right after floor[i]. */
  subject: S[];
}

export function roundsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_ROUNDS?.trim();
  const n = raw ? Number(raw) : 2;
  return Number.isInteger(n) && n >= 1 && n <= 20 ? n : 2;
}

/** Runs floor, subject, floor, subject… (`rounds` pairs), one at a time. */
export async function alternate<F, S = F>(
  rounds: number,
  runFloor: (round: number) => Promise<F>,
  runSubject: (round: number) => Promise<S>,
): Promise<Alternation<F, S>> {
  const out: Alternation<F, S> = { floor: [], subject: [] };
  for (let round = 1; round <= rounds; round++) {
    out.floor.push(await runFloor(round));
    out.subject.push(await runSubject(round));
  }
  return out;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Ratio {
  /** median(subject) */
  value: number;
  /** median(floor) */
  floor: number;
  /** median(subject) / median(floor) */
  ratio: number;
  /** subject[i] / floor[i], pair by pair */
  pairs: number[];
}

/** The medians of both sides, their ratio, and the ratio of each pair (floor[i] and subject[i] ran one after the other). */
export function ratioOf(floor: readonly number[], subject: readonly number[]): Ratio {
  const value = median(subject);
  const floorValue = median(floor);
  return { value, floor: floorValue, ratio: value / floorValue, pairs: subject.map((s, i) => s / floor[i]!) };
}

/** "pairs 0.483×, 0.521×" */
export function pairsNote(r: Ratio): string {
  return `pairs ${r.pairs.map(formatRatio).join(', ')}`;
}
