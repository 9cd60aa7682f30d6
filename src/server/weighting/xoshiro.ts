/**
 * The seeded generator of the credibility interval's bootstrap (interval.ts), small and
 * published so that anyone can draw the same resamples: xoshiro128** 1.1 (Blackman and Vigna,
 * https://prng.di.unimi.it/xoshiro128starstar.c), its four 32-bit words of state filled from
 * two outputs of SplitMix64 (https://prng.di.unimi.it/splitmix64.c) started at the seed: the
 * first output's low then high 32 bits, then the second's.
 */
const MASK_64 = (1n << 64n) - 1n;

/** SplitMix64's outputs from `seed`, as Vigna's splitmix64.c gives them. */
export function splitMix64(seed: bigint): () => bigint {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK_64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
    return z ^ (z >> 31n);
  };
}

/** xoshiro128** seeded by SplitMix64 from `seed`: each call gives the next unsigned 32-bit output. */
export function xoshiro128ss(seed: bigint | number): () => number {
  const generator = new Xoshiro128ss(seed);
  return () => generator.next();
}

/** xoshiro128** with its state in four signed 32-bit numbers; tally() is the bootstrap's hot loop. */
export class Xoshiro128ss {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: bigint | number) {
    const next64 = splitMix64(BigInt(seed));
    const a = next64();
    const b = next64();
    this.s0 = Number(a & 0xffffffffn) | 0;
    this.s1 = Number(a >> 32n) | 0;
    this.s2 = Number(b & 0xffffffffn) | 0;
    this.s3 = Number(b >> 32n) | 0;
  }

  /** The next output, an unsigned 32-bit integer. */
  next(): number {
    const m = Math.imul(this.s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /**
   * n draws of a vote among n, the k-th vote floor(x × n / 2^32) for each next output x, each
   * adding one to its cell's count: the same draws as n calls of next(), with the state kept in
   * locals (about five times faster on 100,000 votes).
   */
  tally(n: number, cellOfVote: Uint32Array, counts: Uint32Array): void {
    let { s0, s1, s2, s3 } = this;
    for (let k = 0; k < n; k += 1) {
      const m = Math.imul(s1, 5);
      const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const cell = cellOfVote[Math.floor((result * n) / 4294967296)] ?? 0;
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
    Object.assign(this, { s0, s1, s2, s3 });
  }
}
