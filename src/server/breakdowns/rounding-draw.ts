/** The draws a breakdown is rounded with (rounding.ts): from the system's CSPRNG, unguessable. Tests replace it. */
import { randomInt } from 'node:crypto';

const RANGE = 2 ** 32;

/** A uniform number in [0, 1). */
export function roundingDraw(): number {
  return randomInt(RANGE) / RANGE;
}
