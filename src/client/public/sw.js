/*
 * The site's service worker (issue 28): reminders, and closed polls readable offline.
 *
 * A plain file rather than a Vite entry: it must live at /sw.js (its scope is the whole site),
 * under a name that does not change with each build (the browser checks that one address for
 * updates), and it needs nothing bundled. It is served with `cache-control: no-cache`, so a
 * new version is picked up on the next visit.
 *
 * - push: shows the reminder the server sent (site name, today's question; tag per day, so a
 *   resend replaces the first). notificationclick: focuses or opens today's page.
 * - Closed polls' results (GET /api/polls/number/N, JSON) are kept in a cache as they are read;
 *   reading /poll-N drawn by the server fetches its JSON once more for the cache.
 * - HTML from the server is never cached: each page carries a fresh CSP nonce. Offline, a
 *   navigation gets the offline page written below, listing the polls kept. So the cache holds
 *   JSON only.
 */
const CACHE = 'closed-polls-v1';
const RESULTS_PATH = /^\/api\/polls\/number\/(\d+)$/;
const POLL_PAGE_PATH = /^\/poll-(\d+)$/;
/** Polls kept for offline reading; the oldest read go first. */
const MAX_POLLS = 60;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' ? message.title : 'Today’s hot take';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : 'reminder',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: sameOriginUrl(message.url) },
    }),
  );
});

/** Only a page of this site is opened from a notification: the path, at this worker's origin. */
function sameOriginUrl(url) {
  try {
    const parsed = new URL(url, self.location.origin);
    return new URL(parsed.pathname + parsed.search, self.location.origin).href;
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || self.location.origin + '/';
  event.waitUntil(
    (async () => {
      // A reminder opened is a visit: the site keeps reminders of browsers still in use.
      fetch('/api/reminders/seen', { method: 'POST', credentials: 'same-origin' }).catch(() => {});
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).pathname === new URL(url).pathname);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(event, url));
    return;
  }
  if (RESULTS_PATH.test(url.pathname)) event.respondWith(results(request));
});

/** Pages from the network, never from a cache; the offline page when there is no network. */
async function navigate(event, url) {
  try {
    const response = await fetch(event.request);
    const poll = POLL_PAGE_PATH.exec(url.pathname);
    if (poll && response.ok) event.waitUntil(keep(new Request(`/api/polls/number/${poll[1]}`)));
    return response;
  } catch {
    return offlinePage(url);
  }
}

/** A closed poll's results: the network first (they may be corrected), the kept copy offline. */
async function results(request) {
  try {
    const response = await fetch(request);
    if (response.ok) await remember(request, response.clone());
    return response;
  } catch {
    const kept = await (await caches.open(CACHE)).match(request.url);
    if (kept) return kept;
    throw new Error('offline');
  }
}

async function keep(request) {
  try {
    const response = await fetch(request);
    if (response.ok) await remember(request, response);
  } catch {
    // Offline: nothing to keep.
  }
}

/** Keeps JSON only: the results of a past poll. */
async function remember(request, response) {
  const type = response.headers.get('content-type') || '';
  if (!type.startsWith('application/json')) return;
  const cache = await caches.open(CACHE);
  await cache.delete(request.url);
  await cache.put(request.url, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_POLLS))) await cache.delete(old);
}

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem;color:#111;background:#f6f7f6}
main{max-width:40rem;margin:0 auto}h1{font-size:1.4rem}section{background:#fff;border-radius:12px;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px #0002}
h2{font-size:1.1rem;margin:0 0 .5rem}ol{padding-left:1.2rem;margin:0}meter{width:100%}.muted{color:#555;font-size:.9rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}section{background:#1c1f1c}.muted{color:#bbb}}`;

async function sha256(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/** The offline page: the polls this browser read before, newest first, with their results. */
async function offlinePage(url) {
  const cache = await caches.open(CACHE);
  const polls = [];
  for (const key of await cache.keys()) {
    try {
      polls.push(await (await cache.match(key)).json());
    } catch {
      // A damaged copy is left out.
    }
  }
  polls.sort((a, b) => b.pollNumber - a.pollNumber);
  const wanted = POLL_PAGE_PATH.exec(url.pathname);
  if (wanted) polls.sort((a, b) => (b.pollNumber === Number(wanted[1])) - (a.pollNumber === Number(wanted[1])));
  const list = polls
    .map(
      (poll) => `<section id="poll-${poll.pollNumber}" data-poll="${poll.pollNumber}">
<h2>#${poll.pollNumber}: ${escape(poll.question)}</h2>
<ol>${poll.results
        .map((r) => `<li>${escape(r.option)}: ${r.percentage}% (${r.votes} ${r.votes === 1 ? 'vote' : 'votes'})</li>`)
        .join('')}</ol>
<p class="muted">${poll.totalVotes} ${poll.totalVotes === 1 ? 'vote' : 'votes'}, ${escape(poll.liveDate)}</p>
</section>`,
    )
    .join('\n');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>You are offline</title>
<style>${STYLE}</style></head><body><main>
<h1>You are offline</h1>
<p>This page needs a connection. ${polls.length > 0 ? 'Here are the polls you read before, kept on this device:' : 'Polls you read while online are kept here for reading offline; there are none yet.'}</p>
${list}
</main></body></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'sha256-${await sha256(STYLE)}'; img-src 'self'`,
    },
  });
}
