/**
 * Times /healthz one request after another, at a visitor's pace, in a process of its own: the
 * process flooding the site spends its time reading megabytes of answers, and a timer sharing
 * its event loop would time that too. Tells the parent its times over IPC when told to stop,
 * or after `samples` requests.
 *
 *   bench-health <site url> <pace ms> <timeout ms> [samples] [paths]
 *
 * `paths` (comma-separated, /healthz by default) are asked for in turn, as browsers ask (gzip);
 * an answer other than 200 counts as timed out.
 */
const [base, pace, timeout, samples, paths] = process.argv.slice(2);
if (!base || !pace || !timeout)
  throw new Error('usage: bench-health <site url> <pace ms> <timeout ms> [samples] [paths]');
const addresses = paths ? paths.split(',') : ['/healthz'];

const times: number[] = [];
let timeouts = 0;
/** Set by the parent's message, between two requests. */
const stop = { asked: false };
process.on('message', () => {
  stop.asked = true;
});

while (!stop.asked && (!samples || times.length < Number(samples))) {
  const started = performance.now();
  try {
    const address = addresses[times.length % addresses.length] ?? '/healthz';
    const response = await fetch(`${base}${address}`, { signal: AbortSignal.timeout(Number(timeout)) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${address} answered ${response.status}`);
    times.push(performance.now() - started);
  } catch {
    timeouts += 1;
    times.push(Number(timeout));
  }
  await new Promise((resolve) => setTimeout(resolve, Number(pace)));
}
process.send?.({ times, timeouts }, () => process.exit(0));
