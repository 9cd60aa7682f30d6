import fixture from './src/server/weighting/fixtures/interval.json' with { type: 'json' };
import { exactInterval } from './src/server/weighting/interval.js';
import type { CellCount } from './src/server/weighting/weigh.js';
const t0 = process.cpuUsage();
for (let i = 0; i < 10; i++) exactInterval(fixture.cells as CellCount[], 3, 38 + i);
const u = process.cpuUsage(t0); console.log((u.user + u.system) / 1000 / 10, "ms cpu per interval");
