/* fairdeal: 可验证洗牌 (docs/fair-dealing.md). From the deal on every state carries
 * `deck_commitment`, the SHA-256 of "paohuzi-deal-v1:<salt>:<deck codes joined by ,>";
 * when the hand is over its record (GET /api/records/ID) reveals the salt and the deck.
 * This module remembers the commitment first seen for each hand (sessionStorage: a
 * reload mid-hand keeps it) and checks the record against it by itself — SubtleCrypto
 * where the page may use it, else the small SHA-256 below (plain http on a LAN is no
 * "secure context"). */
const FORMAT = "paohuzi-deal-v1";
const KEY = "phz.deal.";
const results = new Map(); // hand id → {ok, why} once checked
const running = new Map(); // hand id → Promise

/** Note the commitment a state carries the first time its hand is seen. */
export function rememberDeal(m) {
  const c = m && m.deck_commitment;
  if (!m || !m.hand_id || typeof c !== "string") return;
  try {
    if (!sessionStorage.getItem(KEY + m.hand_id)) sessionStorage.setItem(KEY + m.hand_id, c);
  } catch { /* storage refused (private mode): the settlement's own commitment is checked */ }
}

function firstSeen(handId, fallback) {
  try { return sessionStorage.getItem(KEY + handId) || fallback; } catch { return fallback; }
}

/** {ok: true} | {ok: false, why: "swapped"|"mismatch"|"missing"} | null (not yet known);
 * calls `done` once a check that was running finishes. */
export function dealCheck(m, done) {
  const c = m.deck_commitment;
  if (typeof c !== "string" || !m.hand_id) return { ok: false, why: "missing" };
  const id = m.hand_id;
  if (results.has(id)) return results.get(id);
  if (!running.has(id)) {
    const p = fetchRecord(id)
      .then((rec) => verify(rec, firstSeen(id, c), c))
      .catch(() => ({ ok: false, why: "unreachable" }))
      .then((r) => {
        if (r.why !== "unreachable") results.set(id, r); // a network failure is tried again
        running.delete(id);
        done(r);
      });
    running.set(id, p);
  }
  return null;
}

async function fetchRecord(id) {
  const r = await fetch(`/api/records/${encodeURIComponent(id)}`);
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

/** The record's deck and salt against the commitment seen at the deal (`seen`) and in
 * the settlement's state (`now`). */
export async function verify(rec, seen, now) {
  if (!rec || typeof rec.salt !== "string" || !Array.isArray(rec.deck)) return { ok: false, why: "missing" };
  if (seen !== now || (rec.deck_commitment && rec.deck_commitment !== seen)) return { ok: false, why: "swapped" };
  const hex = await sha256Hex(`${FORMAT}:${rec.salt}:${rec.deck.join(",")}`);
  return hex === seen ? { ok: true } : { ok: false, why: "mismatch" };
}

export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto && crypto.subtle) {
    const buf = await crypto.subtle.digest("SHA-256", bytes);
    return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return sha256Plain(bytes);
}

/* FIPS 180-4 SHA-256, for pages outside a secure context only. */
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256Plain(bytes) {
  const len = bytes.length;
  const total = Math.ceil((len + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[len] = 0x80;
  const dv = new DataView(m.buffer);
  dv.setUint32(total - 8, Math.floor(len / 0x20000000));
  dv.setUint32(total - 4, (len * 8) >>> 0);
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const ror = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => { h[i] = (h[i] + x) >>> 0; });
  }
  return [...h].map((x) => x.toString(16).padStart(8, "0")).join("");
}
