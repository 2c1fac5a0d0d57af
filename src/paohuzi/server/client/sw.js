/* sw: the installed app's service worker. The server fills in its version (a hash of the
 * client's files: a new client is a new worker and a fresh cache) and what to keep: the
 * page, every static file, the presets, the rules pages and the tutorial's whole bundle.
 * Everything is fetched from the network first and kept; with the network cut the kept
 * copy answers, so the lobby, the rules and the tutorial work offline (a table needs its
 * server: the websocket and the live API are never cached). The tutorial's steps are
 * POSTs: offline they are answered from the bundle, the server's own answers. */
const VERSION = "__VERSION__";
const PRECACHE = /*__PRECACHE__*/ [];  // the server writes the list in
const CACHE = "phz-" + VERSION;
const KEEP_API = /^\/api\/(presets|phrases|tutorials?|tutorial\/[^/]+(\/bundle)?|rules\/[^/]+)$/;

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("phz-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const step = /^\/api\/tutorial\/([^/]+)\/step$/.exec(url.pathname);
  if (req.method === "POST" && step) { ev.respondWith(tutorialStep(req, step[1])); return; }
  if (req.method !== "GET") return;
  if (url.pathname.startsWith("/api/") && !KEEP_API.test(url.pathname)) return; // live: the network only
  if (url.pathname.startsWith("/ws/")) return;
  ev.respondWith(networkFirst(req));
});

async function networkFirst(req) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok && res.type === "basic") cache.put(req, res.clone());
    return res;
  } catch (e) {
    const hit = (await cache.match(req)) || (req.mode === "navigate" ? await cache.match("/") : undefined);
    if (hit) return hit;
    throw e;
  }
}

async function tutorialStep(req, name) {
  const body = await req.clone().text();
  try {
    return await fetch(req);
  } catch (e) {
    const kept = await (await caches.open(CACHE)).match(`/api/tutorial/${name}/bundle`);
    if (!kept) throw e;
    const { steps } = await kept.json();
    let q = {};
    try { q = JSON.parse(body); } catch { /* answered below: not found */ }
    const key = q.action === undefined || q.action === null ? String(q.at) : `${q.at}|${q.action}`;
    const hit = steps[key];
    const out = hit || { code: "offline", message: "离线：这一步不在缓存里", message_en: "Offline: this step is not kept" };
    return new Response(JSON.stringify(out), { status: hit ? 200 : 503, headers: { "content-type": "application/json" } });
  }
}
