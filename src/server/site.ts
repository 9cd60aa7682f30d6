/** What every service needs from the outside world: the database, the time, the site's clock rules. */
import type { SiteClock } from '../shared/time.js';
import type { Clock } from './clock.js';
import type { Db } from './db/connection.js';

export interface ServiceDeps {
  db: Db;
  clock: Clock;
  site: SiteClock;
}
