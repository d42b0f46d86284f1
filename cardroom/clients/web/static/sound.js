// Cues made in the page with Web Audio (nothing downloaded). A throw is heard from the
// thrower's side of the table; the catch window has its own tone.

const settings = { volume: 0.6, muted: false };
let ctx = null;
let master = null;

export function configure({ volume, muted }) {
  if (typeof volume === "number") settings.volume = volume;
  if (typeof muted === "boolean") settings.muted = muted;
  if (master) master.gain.value = settings.muted ? 0 : settings.volume;
}

// Browsers start audio only after a gesture: call this from a key or click handler.
export function unlock() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    ctx = new Ctx();
    master = ctx.createGain();
    master.gain.value = settings.muted ? 0 : settings.volume;
    master.connect(ctx.destination);
  }
  if (ctx.state === "suspended") ctx.resume();
}

// Where a seat sits as heard from `me`: -1 left, 0 across the table, +1 right. Seat i's left
// neighbour is i + 1, so the seats after mine run from my left, across, to my right.
export function panFor(seat, me, players) {
  if (me === null || me === undefined || seat === me || players < 2) return 0;
  const offset = (((seat - me) % players) + players) % players;
  return -Math.cos((Math.PI * offset) / players);
}

function voice(pan) {
  if (!ctx || settings.muted) return null;
  const gain = ctx.createGain();
  let out = gain;
  if (ctx.createStereoPanner) {
    const panner = ctx.createStereoPanner();
    panner.pan.value = Math.max(-1, Math.min(1, pan || 0));
    gain.connect(panner);
    out = panner;
  }
  out.connect(master);
  return gain;
}

function tone(freq, ms, { pan = 0, type = "sine", level = 0.4, slideTo = null, delay = 0 } = {}) {
  const gain = voice(pan);
  if (!gain) return;
  const t0 = ctx.currentTime + delay / 1000;
  const t1 = t0 + ms / 1000;
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, t1);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(level, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t1);
  osc.connect(gain);
  osc.start(t0);
  osc.stop(t1 + 0.02);
}

function noise(ms, { pan = 0, level = 0.3, from = 800, to = 3000 } = {}) {
  const gain = voice(pan);
  if (!gain) return;
  const length = Math.max(1, Math.floor((ctx.sampleRate * ms) / 1000));
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = Math.random() * 2 - 1;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  const t0 = ctx.currentTime;
  const t1 = t0 + ms / 1000;
  filter.frequency.setValueAtTime(from, t0);
  filter.frequency.exponentialRampToValueAtTime(to, t1);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(level, t0 + 0.05);
  gain.gain.exponentialRampToValueAtTime(0.0001, t1);
  source.connect(filter);
  filter.connect(gain);
  source.start(t0);
  source.stop(t1 + 0.02);
}

// Every cue the page played, in order ({cue, flight?, t}): what a listener heard, for the tests.
export const played = [];

export const cues = {
  // A burrito leaves the thrower's hand: a whoosh from their side, rising if it comes at you.
  throw(pan, atMe, flightMs) {
    noise(Math.min(900, Math.max(250, flightMs || 600)), { pan, level: atMe ? 0.5 : 0.25, from: 500, to: atMe ? 4000 : 1500 });
  },
  // The catch window of a burrito thrown at you: two quick high beeps, centred.
  catchWindow(ms, flight) {
    played.push({ cue: "catchWindow", flight, t: performance.now() });
    const beep = Math.max(60, Math.min(140, (ms || 300) / 3));
    tone(1760, beep, { type: "square", level: 0.35 });
    tone(2093, beep, { type: "square", level: 0.35, delay: beep + 20 });
  },
  pass(pan) {
    tone(520, 90, { pan, type: "triangle", level: 0.25, slideTo: 380 });
  },
  fight() {
    tone(110, 350, { type: "sawtooth", level: 0.35, slideTo: 70 });
    tone(165, 350, { type: "sawtooth", level: 0.2, slideTo: 90, delay: 120 });
  },
  hit(pan) {
    tone(200, 200, { pan, type: "square", level: 0.3, slideTo: 60 });
  },
  yourTurn() {
    tone(660, 120, { level: 0.3 });
    tone(880, 160, { level: 0.3, delay: 130 });
  },
  alarm() {
    for (let i = 0; i < 3; i += 1) tone(980, 120, { type: "square", level: 0.3, delay: i * 180 });
  },
  beat() {
    tone(440, 80, { level: 0.2 });
  },
  end() {
    tone(523, 150, { level: 0.3 });
    tone(659, 150, { level: 0.3, delay: 160 });
    tone(784, 260, { level: 0.3, delay: 320 });
  },
};
