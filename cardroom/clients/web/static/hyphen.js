// Where a word too long for its card may break, as a printer would set it: between syllables,
// found by a small rule of each language rather than a dictionary (Debian's Chromium has none,
// so CSS's `hyphens: auto` breaks nothing and a word was cut anywhere, with no hyphen). A
// syllable takes the consonants before its vowel that the language can start one with ("schr",
// "tr", "gn", "sc"), else the last one ("Pescag-gio", "Ent-schär-fung"); vowels side by side stay
// together; a few prefixes keep their letters ("Ver-än-de-rung"); never fewer than two letters
// on either side of a break (three after it in French and English). The breaks are soft
// hyphens (U+00AD) in the text drawn on the card, never in the catalogs: the browser draws a
// hyphen only where it breaks the line there.

export const SOFT = "\u00AD";

const VOWELS = new Set("aeiouyàáâäæèéêëìíîïòóôöœùúûüýÿ");
const LETTER = /\p{L}/u;

// Consonant and l or r start a syllable in most of our languages ("Fle-der", "es-plo-si-vo").
const LIQUID = ["bl", "br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "kl", "kr", "pl", "pr", "tr", "vr"];
const ONSETS = {
  de: ["sch", "ch", "ck", "ph", "th", "qu", "schr", "schl", "schw", "pl", "tr", "pr", "bl", "br", "kl", "kr", "fl", "fr", "gl", "gr", "dr"],
  nl: [...LIQUID, "sch", "schr", "ch", "sl", "sm", "sn", "sp", "st", "str", "spr", "sk", "kw", "qu"],
  it: [...LIQUID, "gn", "gl", "ch", "gh", "qu", "sb", "sc", "sd", "sf", "sg", "sl", "sm", "sn", "sp", "sr", "st", "sv", "sch", "scr", "spl", "spr", "str"],
  es: [...LIQUID, "ch", "ll", "rr", "qu"],
  fr: [...LIQUID, "ch", "ph", "th", "gn", "qu"],
  en: [...LIQUID, "ch", "sh", "th", "ph", "wh", "qu", "str", "spr", "scr"],
};
// Prefixes whose last consonant stays with them before a vowel ("Ver-än", not "Ve-rän").
const PREFIXES = { de: ["ver", "zer", "ent", "er", "un"], nl: ["ver", "ont", "her"] };

// The fewest letters a line may end or start a word with (a printer's: German, Dutch, Italian
// and Spanish set "Schwar-ze", "perso-na-le"; French and English keep three after the break).
const MIN_BEFORE = 2;
const MIN_AFTER = { de: 2, nl: 2, it: 2, es: 2 };

// The places (letter counts from the word's start) where `word` may break in language `lang`.
export function syllableBreaks(word, lang) {
  const chars = Array.from(word);
  const low = chars.map((c) => c.toLowerCase());
  if (!chars.every((c) => LETTER.test(c))) return [];
  const onsets = new Set(ONSETS[(lang || "en").slice(0, 2)] || ONSETS.en);
  // "qu": its u is a consonant's.
  const vowel = (i) => VOWELS.has(low[i]) && !(low[i] === "u" && low[i - 1] === "q");
  const breaks = new Set();
  let i = 0;
  while (i < low.length && !vowel(i)) i += 1;
  while (i < low.length) {
    while (i < low.length && vowel(i)) i += 1; // the vowels of one syllable
    const from = i;
    while (i < low.length && !vowel(i)) i += 1; // the consonants up to the next one
    if (i >= low.length) break;
    const cluster = low.slice(from, i).join("");
    let take = 1;
    for (let k = cluster.length; k > 1; k -= 1) {
      if (onsets.has(cluster.slice(-k))) {
        take = k;
        break;
      }
    }
    breaks.add(i - take);
  }
  for (const prefix of PREFIXES[(lang || "").slice(0, 2)] || []) {
    const n = prefix.length;
    if (low.slice(0, n).join("") === prefix && vowel(n)) {
      breaks.delete(n - 1);
      breaks.add(n);
      break;
    }
  }
  const after = MIN_AFTER[(lang || "").slice(0, 2)] || 3;
  return [...breaks].filter((b) => b >= MIN_BEFORE && chars.length - b >= after).sort((a, b) => a - b);
}

// `word` with a soft hyphen at each of its syllables' breaks.
export function hyphenate(word, lang) {
  const chars = Array.from(word);
  for (const b of syllableBreaks(word, lang).reverse()) chars.splice(b, 0, SOFT);
  return chars.join("");
}
