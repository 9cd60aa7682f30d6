/**
 * Runs in a worker thread of the drawing pool (drawing-pool.ts): draws one card per task, so
 * the ~50 ms of layout and rasterising never blocks the thread that answers requests. The
 * renderer loads on the first task, in this thread only.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { renderOgImage, type OgCard } from './og-image.js';

/**
 * resvg keeps each drawing's 3 MB of pixels outside the JavaScript heap without telling V8, so
 * V8 sees no reason to collect them: a flood of drawings grew the process by 3 MB an image, past
 * a gigabyte (thx/resvg-js#216). Collecting after every few drawings, then letting the native
 * finalizers run (they wait for the event loop's next turn), frees them; it costs this thread a
 * few milliseconds and the thread answering requests nothing.
 */
const COLLECT_EVERY = 4;
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
let drawnSinceCollection = 0;

export default async function drawCard(card: OgCard): Promise<Uint8Array> {
  const png = await renderOgImage(card);
  drawnSinceCollection += 1;
  if (drawnSinceCollection >= COLLECT_EVERY) {
    drawnSinceCollection = 0;
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return png;
}
