/* sound: short cues synthesized with Web Audio (no files to ship or license) and an
 * optional announcer voice (speechSynthesis, zh-CN) for 吃/碰/跑/胡. Mute is a setting. */
import { T } from "./i18n.js";
import { settings } from "./store.js";

let ctx = null;
function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/* Each cue: a few notes [freq Hz, start s, length s, wave]. */
const CUES = {
  draw: [[660, 0, 0.07, "triangle"]],
  discard: [[330, 0, 0.08, "square"], [220, 0.05, 0.08, "triangle"]],
  chi: [[523, 0, 0.09, "triangle"], [659, 0.08, 0.12, "triangle"]],
  peng: [[392, 0, 0.1, "square"], [392, 0.11, 0.12, "square"]],
  wei: [[440, 0, 0.08, "sine"], [349, 0.07, 0.1, "sine"]],
  ti: [[349, 0, 0.08, "sawtooth"], [466, 0.07, 0.08, "sawtooth"], [587, 0.14, 0.1, "sawtooth"]],
  pao: [[587, 0, 0.08, "sawtooth"], [466, 0.07, 0.08, "sawtooth"], [349, 0.14, 0.12, "sawtooth"]],
  hu: [[523, 0, 0.12, "triangle"], [659, 0.1, 0.12, "triangle"], [784, 0.2, 0.12, "triangle"], [1046, 0.3, 0.3, "triangle"]],
  turn: [[880, 0, 0.06, "sine"], [1175, 0.07, 0.1, "sine"]],
  tick: [[1400, 0, 0.03, "square"]],
};

export function cue(name) {
  if (settings.mute || !CUES[name]) return;
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + 0.01;
  for (const [f, start, len, wave] of CUES[name]) {
    const o = a.createOscillator();
    const g = a.createGain();
    o.type = wave;
    o.frequency.value = f;
    g.gain.setValueAtTime(0.0001, t0 + start);
    g.gain.exponentialRampToValueAtTime(0.18, t0 + start + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
    o.connect(g).connect(a.destination);
    o.start(t0 + start);
    o.stop(t0 + start + len + 0.02);
  }
}

/** The announcer: "吃!" "碰!" "跑!" "胡了!" when the voice is on and the browser can speak. */
export function announce(type) {
  const word = T.voice[type];
  if (settings.mute || !settings.voice || !word || !window.speechSynthesis) return;
  try {
    const u = new SpeechSynthesisUtterance(word);
    u.lang = "zh-CN";
    u.rate = 1.3;
    window.speechSynthesis.speak(u);
  } catch { /* no voice: the cue is enough */ }
}

/** Browsers start audio only after a user gesture: unlock on the first one. */
export function unlockOnGesture() {
  const go = () => { audio(); window.removeEventListener("pointerdown", go); window.removeEventListener("keydown", go); };
  window.addEventListener("pointerdown", go);
  window.addEventListener("keydown", go);
}
