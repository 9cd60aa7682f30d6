import { describe, expect, it } from 'vitest';
import { splitMix64, Xoshiro128ss, xoshiro128ss } from './xoshiro.js';

describe('the bootstrap’s generator', () => {
  // From Vigna's splitmix64.c and xoshiro128starstar.c compiled with gcc, seeded as xoshiro.ts says.
  it.each([
    [0, [3737715805, 2584255861, 2876756834, 3286328325, 1553311962]],
    [42, [1776835114, 4165204688, 17111135, 2317295270, 2792088233]],
    [12345, [2314518269, 2498321016, 2055377852, 4042509560, 1267802836]],
  ])('seed %i draws what the reference C code draws', (seed, expected) => {
    const next = xoshiro128ss(seed);
    expect(expected.map(() => next())).toEqual(expected);
  });

  it('SplitMix64 gives the reference outputs', () => {
    // splitmix64.c compiled with gcc, from seed 1234567.
    expect(splitMix64(1234567n)()).toBe(6457827717110365317n);
  });

  it('the hot loop draws what the generator draws, one vote of n per output, on and on', () => {
    const n = 1000;
    const cellOfVote = Uint32Array.from({ length: n }, (_, k) => k % 7);
    const counts = new Uint32Array(7);
    const fast = new Xoshiro128ss(26);
    fast.tally(n, cellOfVote, counts);
    fast.tally(n, cellOfVote, counts);
    const next = xoshiro128ss(26);
    const expected = new Uint32Array(7);
    for (let k = 0; k < 2 * n; k += 1) expected[Math.floor((next() * n) / 2 ** 32) % 7]! += 1;
    expect([...counts]).toEqual([...expected]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2 * n);
  });
});
