// The service worker: keeps the page's fingerprinted files in a cache named by their fingerprint and
// answers a repeat visit from it. The game itself needs the server: the page ("/"), the API and the
// table's socket always go to it. Served at /sw.js (scope: the whole page), with the line below
// written by the server for each fingerprint (assets.worker_script): a new fingerprint is new bytes,
// so the browser installs this worker anew, which keeps the new files and deletes the old caches.
const BUILD = {"version": "", "files": []};

const PREFIX = "majiang-";
const CACHE = PREFIX + BUILD.version;
/** @type {any} the worker's global scope (the page's types know only a window) */
const worker = self;

/**
 * Whether an answer is this fingerprint's file: the server keeps a file a year only when asked for by
 * its current fingerprint (during a rolling update another release may answer with its own bytes).
 * @param {Response} answer
 */
const thisVersion = (answer) => answer.ok && (answer.headers.get("cache-control") || "").includes("immutable");

worker.addEventListener("install", (/** @type {any} */ event) => {
  // the files come from the browser's HTTP cache where the page has just loaded them; one that is
  // not this version's fails the install, which the browser tries again on a later visit
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(BUILD.files.map(async (url) => {
    const answer = await fetch(url);
    if (!thisVersion(answer)) throw new Error(`${url} is not this version's file`);
    await cache.put(url, answer);
  }))).then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (/** @type {any} */ event) => {
  // an older fingerprint's files are never asked for again: their caches go
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => worker.clients.claim()));
});

worker.addEventListener("fetch", (/** @type {any} */ event) => {
  /** @type {Request} */
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || !url.pathname.startsWith("/static/") || url.searchParams.get("v") !== BUILD.version) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(request);
    if (kept) return kept;
    const answer = await fetch(request);
    if (thisVersion(answer)) cache.put(request, answer.clone());
    return answer;
  }));
});
