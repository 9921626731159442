// Keeps the runner's page working offline: races have crowds and tunnels, and a page that
// reloads without signal must still come back, with its tracker, and go on playing. It
// controls the runner's pages only (scope /runs/, which the server allows for this file alone).
//
// Pages and files are asked of the network first, so a new release shows as soon as it is
// there, and answered from the copy kept here when the network fails or does not answer in
// time. The API is never cached here: the page keeps what it needs of the run itself, and its
// bearer-token requests go straight to the network.

const CACHE = "voicemsg-pages-v23";
/** What the runner's page loads; kept when the worker installs, so the first reload offline works. */
const FILES = [
  "/static/tokens.css", "/static/app.css", "/static/icon.svg", "/static/common.js",
  "/static/course-outline.js", "/static/course-upload.js", "/static/course.js",
  "/static/decoding.js", "/static/run-celebration.js", "/static/run-course.js",
  "/static/run-events.js", "/static/run-playing.js", "/static/run-ready.js",
  "/static/run-reports.js", "/static/run-screen.js", "/static/run-state.js",
  "/static/run-store.js", "/static/run.js", "/static/runner-course.js",
  "/static/runner-timeline.js", "/static/runner.js", "/static/tracking.js",
  "/static/run-tracking.wasm",
];
/** How long the network has to answer before the kept copy is used: a tunnel hangs, it does not refuse. */
const NETWORK_SECONDS = 4;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("voicemsg-pages-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The runner's page itself, or one of the files it loads. */
function kept(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/runs/") || FILES.includes(url.pathname));
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NETWORK_SECONDS * 1000);
  try {
    const response = await fetch(request, { signal: controller.signal });
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    // Pages are kept without their fragment (which never reaches a request anyway).
    const copy = await cache.match(request, { ignoreSearch: true });
    if (copy) return copy;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// The runner's page asks for its own copy to be kept when it gets ready: it was loaded before
// this worker controlled it, so no fetch of it has passed through here yet.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  const reply = event.ports[0];
  if (typeof path !== "string" || !path.startsWith("/runs/")) {
    if (reply) reply.postMessage("refused");
    return;
  }
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.add(path))
    .then(() => reply && reply.postMessage("kept"), () => reply && reply.postMessage("failed")));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || !kept(url)) return;
  event.respondWith(networkFirst(event.request));
});
