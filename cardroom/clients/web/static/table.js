// The table for the eye: seats around a felt, the piles in the middle, a clock for every timer,
// burritos flying, and motion derived from the difference between two views. It is drawn from
// a model (the view the server sent plus names) and knows nothing of the socket; the page gives
// it callbacks. It is a picture (aria-hidden): the screen-reader layer (the seats list, the
// board text, the hand listbox, the history) reads the same state and keeps the focus.

import { _, fmt, listOf, ngettext } from "./i18n.js";
import { artUrl, cardBack, cardFace, fitNames } from "./art.js";
import { el } from "./ui.js";

const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
const reduced = () => Boolean(motionQuery && motionQuery.matches);

// Where seat `seat` sits, in % of the felt: you at the bottom, your left neighbour (seat + 1)
// to the left, then clockwise round the table. A felt taller than wide (a phone held upright)
// has no room for seats at its sides beside the piles, nor one barely taller than its seats (a
// phone held sideways) for seats above and below its sides: there (`rows`, see rowsLayout) the
// others sit along its top, left neighbour first, in an arc or, when there are many, in
// staggered rows a seat's height apart, and the piles have the middle to themselves (centreSpot).
export function seatSpot(seat, you, n, rows = null) {
  const base = you === null || you === undefined ? 0 : you;
  const k = (seat - base + n) % n;
  if (!rows) {
    // Round an oval, evenly; but of three, the two others sit at its ends, level with the
    // piles: a third of the way round, high at the sides, their seats all but touched a
    // Throw Throw Burrito middle of five piles, and touched it once holding five cards.
    const angle = n === 3 && k > 0 ? (k === 1 ? Math.PI : 0) : Math.PI / 2 + (k * 2 * Math.PI) / n;
    return { x: 50 + 37 * Math.cos(angle), y: 50 + 36 * Math.sin(angle) };
  }
  const pct = (px) => (100 * px) / rows.h;
  if (k === 0) return { x: 50, y: 100 - pct(rows.seat / 2 + 4) };
  const others = n - 1;
  const j = k - 1;
  const count = rowCount(n, rows);
  const half = rows.spread / 2;
  const spread = count === 1 ? Math.min(rows.spread, half * (others - 1)) : rows.spread;
  const x = others === 1 ? 50 : 50 - spread / 2 + (spread * j) / (others - 1);
  if (count === 1) return { x, y: pct(rows.seat / 2 + 4 + ARC_PX * ((x - 50) / half) ** 2) };
  return { x, y: pct(rows.seat / 2 + 4 + rows.seat * (count - 1 - (j % count))) };
}

// How far the ends of a single row of seats come down the felt, in pixels: an arc round the top.
const ARC_PX = 14;

// The seats along the top of a felt of `w` by `h` pixels, or null for seats round an oval.
// Upright, three seats fit side by side, each at most five short lines high (style.css); held
// sideways, five short seats fit in a row (style.css drops their cards and connection there),
// spread over most of the width. `sideways`: the page's layout for a phone held sideways.
// A phone's felt is under its hand and buttons (issue 23): on a 360 by 640 screen it is about
// 400 pixels high. `n`: the seats at the table. Upright with more than five others, four seats
// share a row, narrower, and the rows come closer (never under 56 pixels, two short lines and
// their padding) so that three rows, the piles, the clock and your seat fit: MIDDLE_PX is what
// the piles, their names and the clock take (about 115 pixels, and room round them).
const MIDDLE_PX = 142;
const SHORT_MIDDLE_PX = 174;

export function rowsLayout(w, h, sideways, n = 0) {
  if (w <= 0) return null;
  if (sideways) {
    // Held sideways, a row of seats at least 64 pixels apart, more while the room allows (a
    // Throw Throw Burrito seat of four short lines is 70 high): what is left after your seat,
    // the piles and the clock (SHORT_MIDDLE_PX), shared by the rows.
    const count = Math.max(1, Math.ceil((n - 1) / 5));
    const seat = Math.max(64, Math.min(76, Math.floor((h - SHORT_MIDDLE_PX) / count)));
    return { h, shape: "short", perRow: 5, seat, spread: 76 };
  }
  if (w < h * 1.2 && h >= 300) {
    const perRow = n - 1 > 5 ? 4 : 3;
    const count = Math.max(1, Math.ceil((n - 1) / perRow));
    const seat = Math.max(56, Math.min(84, Math.floor((h - 8 - MIDDLE_PX) / (count + 1))));
    return { h, shape: "narrow", perRow, seat, spread: perRow === 4 ? 76 : 66 };
  }
  return null;
}

const rowCount = (n, rows) => Math.max(1, Math.ceil((n - 1) / rows.perRow));

// The middle of the room left between the others and you, in % of the felt's height.
function centreSpot(n, rows) {
  const count = rowCount(n, rows);
  const top = 4 + rows.seat * count + (count === 1 ? ARC_PX : 0);
  const bottom = rows.h - rows.seat - 4;
  return (100 * (top + bottom)) / 2 / rows.h;
}

// The same query as style.css's layout for a phone held sideways.
const sidewaysQuery = window.matchMedia ? window.matchMedia("(orientation: landscape) and (max-height: 30rem)") : null;
const rowsOf = (st) => rowsLayout(st.w, Math.round(st.h), Boolean(sidewaysQuery && sidewaysQuery.matches), st.n);

// A small picture made from a name: initials on a colour and a shape both chosen by the name.
function avatar(name) {
  let hash = 0;
  for (const ch of name || "?") hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  const hue = hash % 360;
  const shape = ["circle", "square", "diamond", "hex"][(hash >> 9) % 4];
  const letters = (name || "?").trim().split(/\s+/).map((w) => [...w][0] || "").join("").slice(0, 2).toUpperCase() || "?";
  return el("span", { class: `avatar ${shape}`, style: `--hue:${hue}` }, el("span", { text: letters }));
}

function connection(s) {
  if (s.recorded) return s.bot ? _("bot") : ""; // a stored game: nobody is connected now
  if (!s.name) return _("empty seat");
  if (s.bot) return _("bot");
  if (s.standing_in) return _("away: a bot stands in");
  const parts = [s.connected ? _("connected") : _("disconnected")];
  if (s.lag_ms !== null && s.lag_ms !== undefined) parts.push(fmt(_("lag {ms} ms"), { ms: s.lag_ms }));
  return listOf(parts, "unit");
}

function seatChip(m, i, spot, handlers) {
  const v = m.view;
  const s = m.seats[i] || {};
  const classes = ["chip"];
  if (i === m.you) classes.push("me");
  if (s.name && !s.bot && !s.connected && !s.standing_in) classes.push("offline");
  const stats = [];
  if (v) {
    if (m.game === "kittens") {
      if (!v.alive[i]) classes.push("out");
      if (v.turn === i && v.phase !== "game_over") classes.push("turn");
      if (!v.alive[i]) stats.push(el("span", { class: "tag out", text: _("exploded") }));
      else if (v.turn === i && v.phase !== "game_over") {
        stats.push(el("span", { class: "tag turn", text: v.turns_left > 1 ? fmt(ngettext("playing, {n} turn left", "playing, {n} turns left", v.turns_left), { n: v.turns_left }) : _("playing") }));
      }
    } else {
      stats.push(el("span", { class: "tag score", text: fmt(_("score {score}"), { score: v.scores[i] }) }));
      const bruises = el("span", { class: "tag bruises", text: fmt(_("bruises {n}"), { n: v.bruises[i] }) });
      stats.push(bruises);
      if (v.badge === i) stats.push(el("span", { class: "tag badge", text: _("holds the badge") }));
      const f = v.fight;
      if (f && f.fighters.includes(i)) {
        classes.push("fighter");
        if (f.holding[i]) {
          stats.push(el("span", { class: "tag holding", title: _("fighting, holds a burrito") },
            el("img", { src: artUrl("burrito"), alt: "", class: "held" }), el("span", { class: "visually-hidden", text: _("fighting, holds a burrito") })));
        }
      }
    }
  }
  // Ringed: a seat the open "whom?" question offers, and only those (a tap on another does nothing).
  if (m.choosingSeats && m.choosingSeats.includes(i)) classes.push("pick");
  if (m.places && m.places[i] === 1) classes.push("winner");
  const hand = v ? v.hand_sizes[i] : 0;
  const backs = el("span", { class: "backs", title: fmt(ngettext("{n} card in hand", "{n} cards in hand", hand), { n: hand }) },
    ...Array.from({ length: Math.min(hand, 6) }, () => cardBack(m.game)),
    el("span", { class: "backs-count", text: String(hand) }));
  const chip = el("div", {
    class: classes.join(" "),
    "data-seat": i,
    style: `left:${spot.x}%;top:${spot.y}%`,
    onclick: () => handlers.onSeat && handlers.onSeat(i),
  },
  avatar(s.name || "?"),
  el("span", { class: "chip-name", text: s.name || _("empty seat") }),
  // Yours says so in a tag of its own beside your name, not after it: "Tess (you)" was cut to
  // "Tess (yo…" on every layout. (The felt is a picture: the seats list says it to the ear.)
  i === m.you ? el("span", { class: "you", text: _("you") }) : null,
  el("span", { class: "chip-conn", text: connection(s) }),
  v ? backs : null,
  ...stats);
  return chip;
}

function pile(label, content, extra = {}) {
  return el("div", { class: `pile-spot ${extra.cls || ""}`.trim(), "data-pile": extra.id || "", onclick: extra.onclick || null },
    content, el("span", { class: "pile-label", text: label }));
}

function centre(m, handlers) {
  const v = m.view;
  const box = el("div", { class: "centre" });
  if (!v) {
    box.append(el("p", { class: "banner", text: m.state === "waiting" ? _("The game has not started yet.") : _("No game is being played.") }));
    return box;
  }
  const piles = el("div", { class: "piles" });
  if (m.game === "kittens") {
    piles.append(
      pile(_("Deck"), cardBack("kittens", v.deck_size), { id: "deck", onclick: () => handlers.onPile && handlers.onPile("deck") }),
      pile(_("Discard pile"), v.discard.length ? cardFace("kittens", v.discard[0], m.cardName(v.discard[0])) : el("span", { class: "empty-pile" }), { id: "discard" }),
      pile(_("Exploding Kittens left"), el("span", { class: "big", text: String(v.kittens_left) }), { id: "kittens", cls: "small" }),
    );
  } else {
    const tap = (id) => () => handlers.onPile && handlers.onPile(id);
    if (v.seat !== null && v.seat !== undefined) piles.append(pile(_("Your pile"), cardBack("burrito", v.pile_sizes[v.seat]), { id: "own", onclick: tap("own") }));
    piles.append(
      pile(_("Community pile 1"), cardBack("burrito", v.community_sizes[0]), { id: "community-0", onclick: tap("community-0") }),
      pile(_("Community pile 2"), cardBack("burrito", v.community_sizes[1]), { id: "community-1", onclick: tap("community-1") }),
      pile(_("Bruises left"), el("span", { class: "big", text: String(v.bruises_left) }), { id: "bruises", cls: "small" }),
    );
    const f = v.fight;
    if (f) piles.append(pile(_("Free burritos"), el("span", { class: "big burrito-count", text: String(f.free) }), { id: "free", cls: "small" }));
  }
  box.append(piles);
  box.append(el("div", { class: "clock", hidden: true }, el("span", { class: "clock-label" }), el("span", { class: "clock-left" }), el("span", { class: "clock-bar" }, el("span", { class: "clock-fill" }))));
  // What is going on, unless the clock above says it already ("Countdown…" once, not twice).
  const timer = timerOf(m);
  if (m.banner && !(timer && timer[0] === m.banner)) box.append(el("p", { class: "banner", text: m.banner }));
  return box;
}

// The timer shown now: [label, deadline] or null.
function timerOf(m) {
  const v = m.view;
  if (!v) return null;
  if (m.game === "kittens") {
    if (v.deadline === null || v.deadline === undefined || v.phase === "game_over") return null;
    const labels = { turn: _("Turn"), nope_window: _("Nope window"), defusing: _("Time to defuse"), choosing: _("Time to choose") };
    return [labels[v.phase] || _("Turn"), v.deadline];
  }
  const f = v.fight;
  if (f && f.go_at !== null && f.go_at > v.now) return [_("Countdown…"), f.go_at];
  if (f && f.timeout_at !== null && f.timeout_at !== undefined) return [_("Fight time limit"), f.timeout_at];
  if (v.countdown_ends_at !== null && v.countdown_ends_at !== undefined) return [_("Countdown…"), v.countdown_ends_at];
  if (v.next_round_at !== null && v.next_round_at !== undefined) return [_("Next round"), v.next_round_at];
  return null;
}

// The cards' names, and the piles' names, whose longest word ("Gemeinschaftsstapel",
// "Ontploffende") is set smaller, down to 8 px, rather than broken inside itself (issue 23).
const SMALLEST_LABEL = 8;
function fitBoard(board) {
  fitNames(board);
  fitNames(board, ".pile-label", SMALLEST_LABEL, false);
}

// Round an oval a seat is placed by its middle: one taller than the room its place leaves at the
// felt's edge (your seat with a lag that takes a second line, on a laptop's felt made shorter by
// the fight's buttons) is moved in, whole on the felt (a CI run at 1280x800: its last line under
// the felt's edge). Rows of seats (phones) are placed by their edges already.
const EDGE_PX = 4;
function keepInside(st) {
  for (const chip of st.board.querySelectorAll(".chip")) {
    const spot = st.rows ? null : st.spots[Number(chip.dataset.seat)];
    let shift = 0;
    if (spot) {
      const middle = (spot.y * st.h) / 100;
      const half = chip.offsetHeight / 2;
      shift = Math.min(0, st.h - EDGE_PX - (middle + half)) || Math.max(0, EDGE_PX - (middle - half));
    }
    chip.style.marginTop = shift ? `${shift.toFixed(1)}px` : "";
  }
}

// The board drawn, or the felt another size: the names fitted, then the seats kept inside.
function settle(st) {
  fitBoard(st.board);
  keepInside(st);
}

// ---- the felt, kept between draws: a layer redrawn from the model, a layer for motion ---------
const felts = new WeakMap(); // felt -> {model, board, air, fx, timer, spots}

export function drawTable(felt, m, handlers) {
  let st = felts.get(felt);
  if (!st) {
    st = { model: null, board: el("div", { class: "felt-board" }), air: el("div", { class: "felt-air" }), fx: el("div", { class: "felt-fx" }), timer: null, flights: new Map() };
    felt.replaceChildren(st.board, st.air, st.fx);
    felts.set(felt, st);
    // The felt's size, kept by an observer: reading it in each frame would force a layout.
    st.w = felt.clientWidth;
    st.h = felt.clientHeight;
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        st.w = felt.clientWidth;
        st.h = felt.clientHeight;
        // Turned, or shown for the first time: the seats move to the felt's new shape.
        if (st.model && JSON.stringify(rowsOf(st)) !== JSON.stringify(st.rows)) drawTable(felt, st.model, st.handlers);
        else settle(st); // shown for the first time, or its cards another size
      }).observe(felt);
    }
  }
  const n = m.seats.length;
  st.n = n;
  felt.dataset.game = m.game || "";
  felt.dataset.seats = String(n);
  felt.dataset.crowd = n > 6 ? "many" : "few"; // style.css: seats of three lines round a crowded oval
  felt.classList.toggle("playing", Boolean(m.view));
  st.rows = rowsOf(st);
  felt.dataset.shape = st.rows ? st.rows.shape : "wide";
  felt.dataset.rows = String(st.rows ? rowCount(n, st.rows) : 0);
  felt.dataset.perRow = String(st.rows ? st.rows.perRow : 0);
  felt.style.setProperty("--seat-px", `${st.rows ? st.rows.seat : 0}px`);
  // Held sideways, a row's seats are `count` places apart (staggered rows): no wider than that.
  const apart = st.rows && n > 2 ? (rowCount(n, st.rows) * st.rows.spread) / (n - 2) - 1 : 19;
  felt.style.setProperty("--seat-max", `${Math.min(19, apart).toFixed(1)}%`);
  st.spots = m.seats.map((_s, i) => seatSpot(i, m.you, n, st.rows));
  // The seats and piles are drawn again only when what they show changed: not for the server's
  // clock, nor for burritos in flight (the air layer draws those once a frame).
  const key = `${JSON.stringify(st.rows)} ${boardKey(m)}`;
  if (key !== st.key) {
    st.key = key;
    const middle = centre(m, handlers);
    if (st.rows) middle.style.top = `${centreSpot(n, st.rows).toFixed(1)}%`;
    st.board.replaceChildren(...m.seats.map((_s, i) => seatChip(m, i, st.spots[i], handlers)), middle);
    st.clock = st.board.querySelector(".clock");
    settle(st);
  }
  const timer = timerOf(m);
  if (!st.timer || !timer || st.timer.deadline !== timer[1]) {
    st.timer = timer ? { label: timer[0], deadline: timer[1], total: Math.max(1, timer[1] - (m.view ? m.view.now : 0)) } : null;
  }
  if (st.model && st.model.view && m.view && st.model.game === m.game) {
    // Motion reads positions: after the frame that drew this view, when reading costs nothing.
    const before = st.model;
    requestAnimationFrame(() => setTimeout(() => motion(felt, st, before, m)));
  }
  st.model = m;
  st.handlers = handlers;
  tickTable(felt, handlers.now ? handlers.now() : 0);
}

// A view without what changes on its own in every message (the server's clock, burritos in
// flight): what a drawing of seats and piles depends on, to tell whether to draw them again.
export function stillView(v) {
  return v ? { ...v, now: null, fight: v.fight ? { ...v.fight, flights: null } : null } : null;
}

function boardKey(m) {
  return JSON.stringify([document.documentElement.lang, m.game, m.state, m.seats, m.you, stillView(m.view), m.places, m.banner, m.choosingSeats]);
}

// Clocks count down, burritos fly; only what changed is written. A clock's number and its bar
// step once a second together, so a running clock needs this call once a second: returns the ms
// until then (Infinity with no clock running). The bar does not glide: a transition running
// the whole turn had Chromium composite the page 60 times a second for a bar 4 px a second
// shorter (a kittens game at the player's turn, 20 s: 4.4 s of CPU against 0.5 s stepping;
// tests/web/test_frames.py). Burritos fly only in a fight, which the page draws every frame
// (gamescreen.js, tick).
export function tickTable(felt, now) {
  const st = felts.get(felt);
  if (!st || !st.model) return Infinity;
  let next = Infinity;
  const clock = st.clock;
  if (clock && clock.isConnected) {
    const t = st.timer;
    if (!t) {
      if (!clock.hidden) clock.hidden = true;
    }
    else {
      const left = Math.max(0, t.deadline - now);
      const secs = String(Math.ceil(left / 1000));
      if (clock.hidden) clock.hidden = false;
      const label = clock.firstChild;
      if (label.textContent !== t.label) label.textContent = t.label;
      if (clock.children[1].textContent !== secs) clock.children[1].textContent = secs;
      const fill = clock.lastChild.firstChild;
      const scale = `scaleX(${Math.min(1, left / t.total).toFixed(3)})`;
      if (fill.style.transform !== scale) fill.style.transform = scale;
      if (clock.classList.contains("low") !== left < 3000) clock.classList.toggle("low", left < 3000);
      if (left > 0) next = (left % 1000 || 1000) + 5; // just past the next whole second
    }
  }
  flights(felt, st, now);
  return next;
}

function flights(felt, st, now) {
  const v = st.model.view;
  const list = v && v.fight ? v.fight.flights : [];
  if (!list.length && !st.flights.size) return;
  const seen = new Set();
  const w = st.w;
  const h = st.h;
  for (const fl of list) {
    seen.add(fl.id);
    let node = st.flights.get(fl.id);
    if (!node) {
      node = el("span", { class: fl.target === st.model.you ? "burrito at-me" : "burrito" },
        el("img", { src: artUrl("burrito"), alt: "" }), el("span", { class: "catch-ring" }));
      st.air.append(node);
      st.flights.set(fl.id, node);
    }
    const from = st.spots[fl.thrower];
    const to = st.spots[fl.target];
    if (!from || !to) continue;
    const start = fl.lands_at - Math.max(1, fl.flight_ms);
    let p = Math.max(0, Math.min(1, (now - start) / Math.max(1, fl.flight_ms)));
    if (fl.dodged) p = Math.min(1.25, p * 1.25); // a dodged burrito flies on past the seat
    const x = ((from.x + (to.x - from.x) * p) / 100) * w;
    const y = ((from.y + (to.y - from.y) * p) / 100) * h - Math.sin(Math.PI * Math.min(p, 1)) * h * 0.12;
    node.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) rotate(${Math.round(p * 540)}deg)`;
    node.classList.toggle("window", now >= fl.catch_from && now < fl.lands_at && !fl.dodged);
  }
  for (const [id, node] of st.flights) {
    if (!seen.has(id)) {
      node.remove();
      st.flights.delete(id);
    }
  }
}

// ---- motion: what changed between two views ----------------------------------------------------
function spotPx(felt, st, where) {
  if (typeof where === "number") {
    const s = st.spots[where];
    return s ? { x: (s.x / 100) * st.w, y: (s.y / 100) * st.h } : null;
  }
  const pileNode = st.board.querySelector(`[data-pile="${where}"]`);
  if (!pileNode) return null;
  const a = felt.getBoundingClientRect();
  const b = pileNode.getBoundingClientRect();
  return { x: b.left - a.left + b.width / 2, y: b.top - a.top + b.height / 2 };
}

function fly(felt, st, from, to, node) {
  const a = spotPx(felt, st, from);
  const b = spotPx(felt, st, to);
  if (!a || !b) return;
  node.classList.add("flying");
  st.fx.append(node);
  const anim = node.animate(
    [{ transform: `translate(${a.x}px, ${a.y}px) scale(.8)` }, { transform: `translate(${b.x}px, ${b.y}px) scale(1)` }],
    { duration: 420, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  anim.onfinish = () => node.remove();
}

function flash(st, seat, cls, text = null) {
  const chip = st.board.querySelector(`.chip[data-seat="${seat}"]`);
  if (!chip) return;
  chip.classList.add(cls);
  if (text) chip.append(el("span", { class: `pop ${cls}`, text }));
  setTimeout(() => chip.classList.remove(cls), 900);
}

function stamp(felt, st, text, cls) {
  const node = el("span", { class: `stamp ${cls}`, text });
  st.fx.append(node);
  const anim = node.animate([{ transform: "translate(-50%,-50%) scale(2.2) rotate(-14deg)", opacity: 0 }, { transform: "translate(-50%,-50%) scale(1) rotate(-8deg)", opacity: 1, offset: 0.3 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration: 1100, easing: "ease-out" });
  anim.onfinish = () => node.remove();
}

function motion(felt, st, a, b) {
  const va = a.view;
  const vb = b.view;
  const instant = reduced();
  const n = vb.hand_sizes.length;
  if (b.game === "kittens") {
    for (let i = 0; i < n; i += 1) {
      if (va.alive[i] && !vb.alive[i]) {
        flash(st, i, "boom", _("exploded"));
        if (!instant) stamp(felt, st, _("BOOM!"), "boom");
      }
    }
    if (instant) return;
    if (vb.deck_size < va.deck_size) {
      const drawer = vb.hand_sizes.findIndex((h, i) => h > va.hand_sizes[i]);
      if (drawer >= 0) fly(felt, st, "deck", drawer, cardBack("kittens"));
    }
    if (vb.discard.length > va.discard.length) {
      const player = va.window ? va.window.player : vb.window ? vb.window.player : va.turn;
      const card = vb.discard[0];
      fly(felt, st, typeof player === "number" ? player : vb.turn, "discard", cardFace("kittens", card, b.cardName(card)));
      if (card === "defuse" && va.phase === "defusing") stamp(felt, st, b.cardName("defuse"), "defuse");
    }
    const nopes = (w) => (w ? w.nopes : 0);
    if (vb.window && nopes(vb.window) > nopes(va.window)) stamp(felt, st, b.cardName("nope"), "nope");
    return;
  }
  for (let i = 0; i < n; i += 1) {
    if (vb.bruises[i] > va.bruises[i]) flash(st, i, "hit", `+${vb.bruises[i] - va.bruises[i]}`);
    if (vb.scores[i] > va.scores[i]) flash(st, i, "scored", `+${vb.scores[i] - va.scores[i]}`);
  }
  const fa = va.fight;
  const fb = vb.fight;
  if (fa) {
    for (const fl of fa.flights) {
      const still = fb && fb.flights.find((x) => x.id === fl.id);
      if (still && still.dodged && !fl.dodged) flash(st, fl.target, "dodged", _("Dodge"));
      if (!still && vb.bruises[fl.target] === va.bruises[fl.target] && !fl.dodged && vb.now < fl.lands_at) flash(st, fl.target, "caught", _("Catch!"));
    }
  }
  if (instant) return;
  for (let i = 0; i < n; i += 1) {
    const left = (i + 1) % n;
    if (vb.hand_sizes[i] < va.hand_sizes[i] && vb.hand_sizes[left] > va.hand_sizes[left]) fly(felt, st, i, left, cardBack("burrito"));
    else if (vb.hand_sizes[i] > va.hand_sizes[i]) {
      const fromPile = vb.community_sizes[0] < va.community_sizes[0] ? "community-0" : vb.community_sizes[1] < va.community_sizes[1] ? "community-1" : i === b.you ? "own" : null;
      if (fromPile) fly(felt, st, fromPile, i, cardBack("burrito"));
    }
  }
}
