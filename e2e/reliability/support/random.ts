// A seeded pseudo-random generator, so that a failing run can be repeated with the seed it
// printed: BERTH_RELIABILITY_SEED=<seed> npm run test:reliability.

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bytes(length: number): Buffer;
}

/** The seed from BERTH_RELIABILITY_SEED, or a fresh one. */
export function seedFromEnv(): number {
  const given = process.env.BERTH_RELIABILITY_SEED;
  if (given && /^\d+$/.test(given)) return Number(given) >>> 0;
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}

/** mulberry32: tiny, fast and good enough to spread kill points and sizes. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    bytes(length) {
      const out = Buffer.allocUnsafe(length);
      for (let i = 0; i < length; i += 4) {
        const word = Math.floor(next() * 4294967296);
        for (let k = 0; k < 4 && i + k < length; k++) out[i + k] = (word >>> (8 * k)) & 255;
      }
      return out;
    },
  };
}
