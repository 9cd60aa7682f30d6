/**
 * A flood of requests for different preview images, over real HTTP to a listening server with
 * real drawing threads: every request is answered with its image or, when too many are being
 * drawn, a 503, never an error, and the rest of the site keeps answering. How fast /healthz
 * answers meanwhile is measured in `npm run bench` (bench/bench-floods.ts), not here.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { PreviewImages } from './preview-images.js';

const POLLS = 150;
const FLOODING_CONNECTIONS = 12;
const HEALTH_CHECKS = 20;
const MIN_DRAWN = 10;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a flood of preview-image requests', () => {
  it(
    'draws images or refuses them with a 503, never fails one, while /healthz keeps answering',
    { timeout: 60_000 },
    async () => {
      const images = new PreviewImages();
      t = await createTestApp('sqlite', { previewImages: images });
      for (let i = 0; i < POLLS; i += 1) {
        const liveDate = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
        await seedPoll(t.db, {
          status: 'past',
          liveDate,
          question: `Poll ${i}: should the school day start later?`,
          votes: [i % 5, 2, 1],
        });
      }
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const get = async (path: string) => {
        const response = await fetch(`${base}${path}`);
        await response.arrayBuffer();
        return response.status;
      };
      expect(await get('/og/poll-1.png')).toBe(200); // the renderer is loaded on the first image

      let flooding = true;
      let next = 1;
      const statuses: number[] = [];
      const flood = Array.from({ length: FLOODING_CONNECTIONS }, async () => {
        while (flooding) statuses.push(await get(`/og/poll-${(next++ % POLLS) + 1}.png`));
      });
      const drawnBefore = images.renders;
      // The flood goes on until MIN_DRAWN images were drawn through it, and /healthz was asked
      // HEALTH_CHECKS times meanwhile.
      const health: number[] = [];
      while (health.length < HEALTH_CHECKS || images.renders - drawnBefore < MIN_DRAWN)
        health.push(await get('/healthz'));
      flooding = false;
      await Promise.all(flood);

      expect(health.filter((status) => status !== 200)).toEqual([]);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(MIN_DRAWN);
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    },
  );
});
