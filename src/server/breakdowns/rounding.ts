/**
 * How a breakdown's counts are published (issue 34, item 13): each is a multiple of
 * BREAKDOWN_ROUNDING_BASE, drawn at random once, at publication, and kept (breakdowns.service.ts).
 *
 * Why at random, and why not always to a neighbour. Someone may know every vote of a group but
 * one: they invented the others ("padding"), or they subtract what they know from everyone's
 * result (the complement). Rounding that is fixed by the count can always be beaten: with 2
 * invented votes on each option, the one real vote pushes its option from 2 to 3 and so from 0
 * to 5. Random rounding to the two neighbours (as Statistics Canada's census tables) still
 * gives a vote away now and then: a 0 is always shown as 0, so a 5 where the padder put none
 * can only be the real vote. So here every multiple of 5 near the count is possible, the
 * nearest most likely: a count c is shown as m with a chance in proportion to
 * exp(-|m - c| / ROUNDING_SPREAD). One vote more or less changes each chance by a factor of at
 * most e^(2 / ROUNDING_SPREAD) (under 3), so no figure published is possible for one answer and
 * impossible for another: subtraction can tilt a guess, never settle it. (Multiples further
 * than ROUNDING_REACH from the count are left out: each had a chance under e^-25.)
 */
import { BREAKDOWN_ROUNDING_BASE } from '../../shared/profile.js';

/** In votes: how quickly the chance falls with the distance from the count. */
export const ROUNDING_SPREAD = 2;
/** In votes: the furthest a published count is from the true one. */
export const ROUNDING_REACH = 50;

export interface RoundingChance {
  value: number;
  chance: number;
}

/** Every value `count` may be published as (multiples of the base, at least `atLeast`), with its chance. */
export function roundingChances(count: number, atLeast = 0): RoundingChance[] {
  const base = BREAKDOWN_ROUNDING_BASE;
  const low = Math.max(atLeast, Math.ceil((count - ROUNDING_REACH) / base) * base);
  const values: number[] = [];
  for (let value = Math.max(0, low); value <= count + ROUNDING_REACH; value += base) values.push(value);
  const weights = values.map((value) => Math.exp(-Math.abs(value - count) / ROUNDING_SPREAD));
  const sum = weights.reduce((total, weight) => total + weight, 0);
  return values.map((value, i) => ({ value, chance: (weights[i] ?? 0) / sum }));
}

/**
 * The value `count` is published as, for a draw `uniform` in [0, 1): the chances laid end to
 * end, in increasing order. A draw of 0.5 gives the nearest multiple (what tests take).
 */
export function roundCount(count: number, uniform: number, atLeast = 0): number {
  const chances = roundingChances(count, atLeast);
  let reached = 0;
  for (const { value, chance } of chances) {
    reached += chance;
    if (uniform < reached) return value;
  }
  return chances.at(-1)?.value ?? 0;
}
