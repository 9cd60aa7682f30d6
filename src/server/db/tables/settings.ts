/** Site-wide values: counters, settings made once, rate-limit windows. */
import type { Timestamp } from './time.js';

/** Named counters that only go up, such as the next poll number. */
export interface CountersTable {
  name: string;
  value: number;
}

/** Values the site makes for itself once: the generated admin password's hash, hashing keys. */
export interface SettingsTable {
  name: string;
  value: string;
}

/** Actions counted per key (an address hash, a voter) in a fixed window, for every instance. */
export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}
