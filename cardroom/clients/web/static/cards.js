// Card names and what each card does come from the server (`cards` in /i18n/{lang}.json),
// already in the page's language and in the same words as the narration; the page keeps no
// copy of them. What stays here is rules data the keys need (which cards make which move).

const catalog = { burrito: {}, kittens: {} };

export async function loadCards(code) {
  try {
    const reply = await fetch(`/i18n/${encodeURIComponent(code)}.json`);
    if (!reply.ok) return;
    const data = await reply.json();
    for (const game of Object.keys(catalog)) catalog[game] = (data.cards && data.cards[game]) || {};
  } catch (error) {
    // Without the catalog the page shows card identifiers; the narration still names them.
  }
}

// The display name of `card` in `game` (the identifier when the server did not say).
export function cardLabel(game, card) {
  const entry = (catalog[game] || {})[card];
  if (typeof entry === "string") return entry;
  return entry && entry.name ? entry.name : card;
}

// What `card` of `game` does (the tip beside a card; Shift+D when the server cannot answer
// the query); at a table of two `players` the words for two, where the card has its own.
export function cardText(game, card, players = null) {
  const entry = (catalog[game] || {})[card];
  if (!entry || typeof entry !== "object") return "";
  return (players === 2 && entry.two_players) || entry.text || "";
}

// Every kittens card, in the server's order (a triple names one of them).
export function kittenCards() {
  return Object.keys(catalog.kittens);
}

export const FIGHT_OF = { brawl_a: "brawl", brawl_b: "brawl", war: "war", duel: "duel" };
export const BURRITO_NORMAL = ["barky_sharky", "logger_dogger", "goth_sloth", "nacho_llama", "salsa_yeti", "guac_gator", "churro_bat"];
export const KITTEN_CATS = ["black_cat", "white_cat", "grey_cat", "red_cat", "tabby_cat", "feral_cat"];
export const KITTEN_TARGETED = ["favor", "targeted_attack"];
