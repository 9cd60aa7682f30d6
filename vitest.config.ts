import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests run in a time zone that is neither UTC nor the site's (New York), with a half-hour
 * offset and southern-hemisphere daylight saving: code that reads the machine's local time
 * instead of the site's gets the wrong day, and the tests say so.
 */
const TEST_TIME_ZONE = 'Australia/Adelaide';
process.env.TZ = TEST_TIME_ZONE;

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const hasChromium = fs.existsSync(chromiumPath);
if (!hasChromium) {
  const message = `Browser tests did not run: no Chromium at ${chromiumPath}. Install it with "sudo apt-get install chromium" or set CHROMIUM_PATH.`;
  if (process.env.REQUIRE_CHROMIUM === '1') throw new Error(message);
  // Vitest reads this file once per project; say it once.
  if (!process.env.HOT_TAKE_CHROMIUM_NOTICE_SHOWN) console.warn(message);
  process.env.HOT_TAKE_CHROMIUM_NOTICE_SHOWN = '1';
}

/**
 * The Redis tests (`*.redis.test.ts`) start a redis-server of their own on a free port, which
 * they can pause: without one installed they are not registered at all, and a line says so.
 */
const REDIS_TESTS = 'src/server/**/*.redis.test.ts';
const redisServerPath =
  process.env.REDIS_SERVER_PATH ||
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'redis-server'))
    .find((file) => fs.existsSync(file));
const hasRedisServer = redisServerPath !== undefined && fs.existsSync(redisServerPath);
if (!hasRedisServer) {
  const where = redisServerPath ? `at ${redisServerPath}` : 'on the PATH';
  const message = `Redis tests did not run (they are left out): no redis-server ${where}. Install it with "sudo apt-get install redis-server" or set REDIS_SERVER_PATH.`;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(message);
  if (!process.env.HOT_TAKE_REDIS_NOTICE_SHOWN) console.warn(message);
  process.env.HOT_TAKE_REDIS_NOTICE_SHOWN = '1';
}

/**
 * Test files wait more than they compute (on Chromium, on fsync, on a server's shutdown), so
 * every core runs one: Vitest's default leaves one core free, which on a 2-core machine ran the
 * files one at a time (npm test 600 s with one worker, 459 s with two, 2026-11-26).
 */
const WORKERS = Math.max(2, os.availableParallelism());

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    env: { TZ: TEST_TIME_ZONE, CHROMIUM_PATH: chromiumPath, REDIS_SERVER_PATH: redisServerPath ?? '' },
    setupFiles: ['test/setup.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: ['src/shared/**/*.test.ts'] } },
      { extends: true, test: { name: 'client', include: ['src/client/**/*.test.{ts,tsx}'] } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, REDIS_TESTS],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      ...(hasRedisServer
        ? [{ extends: true as const, test: { name: 'redis', include: [REDIS_TESTS], testTimeout: 20_000 } }]
        : []),
      ...(hasChromium
        ? [
            {
              extends: true as const,
              test: {
                name: 'browser',
                include: ['test/browser/**/*.test.ts'],
                globalSetup: ['test/browser/global-setup.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
