// Cues made in the page with Web Audio (nothing downloaded). A throw is heard from the
// thrower's side of the table; the catch window has its own tone. The earcons (issue 21) carry
// what needs an answer by sound as well as by words, each its own shape: a burrito coming at
// you, "catch now", your turn, a Nope window; the sound setting (mute) turns them off too.

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

// One oscillator note `delay` ms from now; the oscillator (null when muted or before any gesture).
function tone(freq, ms, { pan = 0, type = "sine", level = 0.4, slideTo = null, delay = 0 } = {}) {
  const gain = voice(pan);
  if (!gain) return null;
  const t0 = ctx.currentTime + Math.max(0, delay) / 1000;
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
  return osc;
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
// An earcon is listed only when its oscillators were started (sound on, audio unlocked), at
// the moment it sounds.
export const played = [];

// The earcons, each a few notes (frequency, ms, options): short, and unlike one another.
const EARCONS = {
  // A burrito thrown at you: a fast rising square sweep, unlike the throws at others.
  incoming: [[440, 140, { type: "square", level: 0.3, slideTo: 1320 }]],
  // The catch window opens: two quick high beeps.
  catchNow: [[1760, 90, { type: "square", level: 0.35 }], [2093, 90, { type: "square", level: 0.35, delay: 110 }]],
  // "Burrito!" when you may play: three quick rising triangle notes.
  go: [[392, 70, { type: "triangle", level: 0.35 }], [587, 70, { type: "triangle", level: 0.35, delay: 80 }], [784, 160, { type: "triangle", level: 0.35, delay: 160 }]],
  // Your turn: a rising two-note chime.
  yourTurn: [[660, 120, { level: 0.3 }], [880, 160, { level: 0.3, delay: 130 }]],
  // A Nope window you may answer: a low-high-low triangle wobble.
  nopeWindow: [[587, 90, { type: "triangle", level: 0.35 }], [880, 90, { type: "triangle", level: 0.35, delay: 100 }], [587, 120, { type: "triangle", level: 0.35, delay: 200 }]],
};

// Play earcon `name` in `delay` ms (0: now); {cancel()} stops it if it has not sounded yet.
// Scheduled on the audio clock, so it sounds on time even when the page is busy then.
export function earcon(name, { delay = 0, flight = undefined } = {}) {
  const oscs = EARCONS[name].map(([freq, ms, options]) => tone(freq, ms, { ...options, delay: (options.delay || 0) + delay }));
  if (!oscs.every(Boolean)) {
    for (const osc of oscs) if (osc) osc.stop();
    return { pending: () => false, cancel() {} };
  }
  const entry = { cue: name, flight, t: 0 };
  const note = () => {
    entry.t = performance.now();
    played.push(entry);
  };
  const timer = delay > 0 ? setTimeout(note, delay) : (note(), null);
  let cancelled = false;
  return {
    // True while it is still to sound (neither sounded nor cancelled).
    pending() {
      return !cancelled && entry.t === 0;
    },
    cancel() {
      cancelled = true;
      if (timer !== null) clearTimeout(timer);
      for (const osc of oscs) {
        try {
          osc.stop(0); // before its start: it never sounds
        } catch (error) {
          // already stopped
        }
      }
    },
  };
}

export const cues = {
  // A burrito leaves the thrower's hand: a whoosh from their side, rising if it comes at you.
  throw(pan, atMe, flightMs) {
    noise(Math.min(900, Math.max(250, flightMs || 600)), { pan, level: atMe ? 0.5 : 0.25, from: 500, to: atMe ? 4000 : 1500 });
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
    earcon("yourTurn");
  },
  go() {
    earcon("go");
  },
  // A Nope window the listener may answer (a card played against them, a Nope in hand): for
  // the page's Nope controls to call.
  nopeWindow() {
    earcon("nopeWindow");
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
