// Card names and what each card does come from the server (`cards` in /i18n/{lang}.json),
// already in the page's language and in the same words as the narration; the page keeps no
// copy of them, nor of which cards make which move: that comes with them (`entry` below).

const catalog = { burrito: {}, kittens: {} };

// The cards of a language's answer from the server (i18n.js's loadCatalog fetches it); without
// one the page shows card identifiers, and the narration still names them.
export function setCards(data) {
  for (const game of Object.keys(catalog)) catalog[game] = (data && data.cards && data.cards[game]) || {};
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

// What the keys need to know of a card, as the engine's card registry says
// (games/<game>/cards.py, sent with the names): kittens `targets` (played alone, it names a
// player) and `cat` (it goes into cat combos); which sets may be played now is the view's
// `plays` (actions.js); burrito `fight` (the fight three of a battle card call; none for the
// normal kinds).
function entry(game, card) {
  const found = (catalog[game] || {})[card];
  return found && typeof found === "object" ? found : {};
}

export const kittenTargets = (card) => entry("kittens", card).targets === true;
export const kittenCat = (card) => entry("kittens", card).cat === true;
export const fightOf = (card) => entry("burrito", card).fight || null;

// The burrito cards that call a fight, and those that score as a set, in the server's order.
export const burritoBattle = () => Object.keys(catalog.burrito).filter((card) => fightOf(card));
export const burritoNormal = () => Object.keys(catalog.burrito).filter((card) => !fightOf(card));
