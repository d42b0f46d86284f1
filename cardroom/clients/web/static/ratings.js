// The leaderboard of each game (GET /api/leaderboard/GAME) and a player's page
// (GET /api/players/NAME): stats per game and the rating history as a chart drawn here, an
// inline SVG with a spoken summary, and the same figures as a table.

import { api } from "./api.js";
import { _, fmt, lang } from "./i18n.js";
import { gameName, renderGameRows, when } from "./records.js";
import { $, announce, el } from "./ui.js";
import { showView } from "./views.js";

const SVG = "http://www.w3.org/2000/svg";

let ctx = null; // { account: () => account or null }

function number(value) {
  try {
    return new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(value);
  } catch (error) {
    return String(value);
  }
}

// ---- the leaderboard -----------------------------------------------------------------------
export async function showLeaderboard(focus = true) {
  showView("leaderboard");
  if (focus) $("leaderboard-title").focus();
  await loadLeaderboard();
}

async function loadLeaderboard() {
  const game = $("leaderboard-game").value;
  const reply = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}`);
  $("leaderboard-error").textContent = reply.ok ? "" : reply.data.message;
  if (!reply.ok) announce(reply.data.message, true);
  const players = reply.ok ? reply.data.players || [] : [];
  $("leaderboard-caption").textContent = fmt(_("Leaderboard of {game}"), { game: gameName(game) });
  $("leaderboard-body").replaceChildren(
    ...players.map((p) => {
      const name = p.bot ? p.name : el("button", { type: "button", class: "link", "data-player": p.name, onclick: () => showPlayer(p.name) }, p.name);
      return el(
        "tr",
        {},
        el("td", { "data-label": _("Rank") }, String(p.rank)),
        el("th", { scope: "row", "data-label": _("Name") }, name),
        el("td", { "data-label": _("Bot") }, p.bot ? _("yes") : _("no")),
        el("td", { "data-label": _("Rating") }, number(p.rating)),
        el("td", { "data-label": _("Games") }, String(p.played)),
        el("td", { "data-label": _("Wins") }, String(p.won)),
      );
    }),
  );
  $("leaderboard-table").hidden = players.length === 0;
  $("leaderboard-empty").hidden = players.length > 0 || !reply.ok;
}

// ---- a player's page -----------------------------------------------------------------------
export async function showPlayer(name, focus = true) {
  const account = ctx.account();
  const own = Boolean(account && account.name.toLowerCase() === String(name).toLowerCase());
  showView("player", own);
  $("player-title").textContent = own ? fmt(_("My page: {name}"), { name }) : fmt(_("Player: {name}"), { name });
  $("player-body").replaceChildren(el("p", { text: _("Loading…") }));
  if (focus) $("player-title").focus();
  const reply = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  $("player-error").textContent = reply.ok ? "" : reply.data.message;
  if (!reply.ok) {
    $("player-body").replaceChildren();
    announce(reply.data.message, true);
    return;
  }
  renderPlayer(reply.data);
}

function renderPlayer(data) {
  const parts = [];
  const games = Object.entries(data.games || {});
  if (!games.length) parts.push(el("p", { text: _("No rated games yet.") }));
  for (const [game, stats] of games) {
    const id = `player-${game}`;
    parts.push(
      el("section", { "aria-labelledby": id, class: "player-game" },
        el("h3", { id, text: gameName(game) }),
        el("p", { text: fmt(_("Games: {played}. Wins: {won}. Rating: {rating}."), { played: stats.played, won: stats.won, rating: number(stats.rating) }) }),
        ...ratingChart(game, stats.history || [])),
    );
  }
  const recent = data.recent || [];
  if (recent.length) {
    const body = el("tbody");
    renderGameRows(body, recent, `player:${data.name}`);
    parts.push(
      el("h3", { text: _("Recent games") }),
      el("div", { class: "scroll-x" },
        el("table", { class: "games-list" },
          el("caption", { text: fmt(_("Recent games of {name}"), { name: data.name }) }),
          el("thead", {}, el("tr", {},
            ...[_("Game"), _("Finished"), _("Players"), _("Winner"), _("Replay")].map((t) => el("th", { scope: "col", text: t })))),
          body)),
    );
  }
  $("player-body").replaceChildren(...parts);
}

// The history as a line chart (our own SVG: nothing downloaded) and as a table.
export function ratingChart(game, history) {
  if (!history.length) return [el("p", { text: _("No rating history yet.") })];
  const ratings = history.map((h) => h.rating);
  const first = ratings[0];
  const last = ratings[ratings.length - 1];
  const high = Math.max(...ratings);
  const low = Math.min(...ratings);
  const summary = fmt(_("Rating in {game}. Games rated: {n}. First {first}, last {last}, highest {high}."), {
    game: gameName(game), n: history.length, first: number(first), last: number(last), high: number(high),
  });
  const width = 600;
  const height = 220;
  const pad = { left: 56, right: 16, top: 16, bottom: 36 };
  const span = high - low || 1;
  const x = (i) => pad.left + (history.length === 1 ? (width - pad.left - pad.right) / 2 : (i * (width - pad.left - pad.right)) / (history.length - 1));
  const y = (r) => pad.top + ((high - r) * (height - pad.top - pad.bottom)) / span;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", summary);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("focusable", "false");
  const add = (tag, attrs, text = null) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== null) node.textContent = text;
    svg.append(node);
    return node;
  };
  add("line", { x1: pad.left, y1: pad.top, x2: pad.left, y2: height - pad.bottom, class: "axis" });
  add("line", { x1: pad.left, y1: height - pad.bottom, x2: width - pad.right, y2: height - pad.bottom, class: "axis" });
  add("text", { x: pad.left - 6, y: y(high) + 4, "text-anchor": "end", class: "label" }, number(high));
  if (high !== low) add("text", { x: pad.left - 6, y: y(low) + 4, "text-anchor": "end", class: "label" }, number(low));
  add("text", { x: x(0), y: height - 12, "text-anchor": "middle", class: "label" }, "1");
  if (history.length > 1) add("text", { x: x(history.length - 1), y: height - 12, "text-anchor": "middle", class: "label" }, String(history.length));
  add("polyline", { points: ratings.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" "), class: "line" });
  ratings.forEach((r, i) => add("circle", { cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 4, class: "point" }));

  const body = el("tbody");
  history.forEach((h, i) => body.append(el("tr", {},
    el("th", { scope: "row", text: String(i + 1) }),
    el("td", { text: when(h.at_ms) }),
    el("td", { text: number(h.rating) }))));
  const table = el("table", { class: "rating-table" },
    el("caption", { text: fmt(_("Rating in {game}, game by game"), { game: gameName(game) }) }),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: _("Game number") }),
      el("th", { scope: "col", text: _("Date") }),
      el("th", { scope: "col", text: _("Rating") }))),
    body);
  return [
    el("figure", { class: "chart" }, svg),
    el("details", { class: "chart-data" }, el("summary", { text: _("The figures of the chart as a table") }), el("div", { class: "scroll-x" }, table)),
  ];
}

export function initRatings(context) {
  ctx = context;
  $("leaderboard-game").addEventListener("change", loadLeaderboard);
}
