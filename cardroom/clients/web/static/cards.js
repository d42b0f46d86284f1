// Card names and what each card does, as msgids (translated where they are shown).
// Identifiers are the wire's; names match cardroom/narrate (the server's narration).

import { N_ } from "./i18n.js";

export const KITTEN_NAMES = {
  exploding_kitten: N_("Exploding Kitten"),
  defuse: N_("Defuse"),
  nope: N_("Nope"),
  attack: N_("Attack"),
  targeted_attack: N_("Targeted Attack"),
  personal_attack: N_("Personal Attack"),
  triple_attack: N_("Triple Attack"),
  skip: N_("Skip"),
  super_skip: N_("Super Skip"),
  reverse: N_("Reverse"),
  favor: N_("Favor"),
  shuffle: N_("Shuffle"),
  draw_from_the_bottom: N_("Draw from the Bottom"),
  swap_top_and_bottom: N_("Swap Top and Bottom"),
  see_the_future: N_("See the Future"),
  super_see_the_future: N_("Super See the Future"),
  alter_the_future: N_("Alter the Future"),
  super_alter_the_future: N_("Super Alter the Future"),
  sneak_draw: N_("Sneak Draw"),
  black_cat: N_("Black Cat"),
  white_cat: N_("White Cat"),
  grey_cat: N_("Grey Cat"),
  red_cat: N_("Red Cat"),
  tabby_cat: N_("Tabby Cat"),
  feral_cat: N_("Feral Cat"),
};

// shift+D, used when the server cannot answer the query itself.
export const KITTEN_TEXT = {
  exploding_kitten: N_("Drawing it makes you explode unless you play a Defuse in time; then you put it back in the deck wherever you like."),
  defuse: N_("Saves you from an Exploding Kitten you drew; you put the kitten back anywhere in the deck. It counts as your draw."),
  nope: N_("Cancels the last card or combo another player played; a Nope can be Noped too. Play it at any time while a Nope window is open."),
  attack: N_("Ends your turn without drawing; the next player plays two turns."),
  targeted_attack: N_("Ends your turn without drawing; the player you choose plays two turns."),
  personal_attack: N_("Your turn goes on, and two more turns of yours follow it."),
  triple_attack: N_("Ends your turn without drawing; the next player plays three turns."),
  skip: N_("Ends one turn without drawing."),
  super_skip: N_("Ends all your turns without drawing."),
  reverse: N_("Ends one turn without drawing and reverses the order of play."),
  favor: N_("The player you choose gives you a card of their choice; you still draw."),
  shuffle: N_("Shuffles the deck; you still draw."),
  draw_from_the_bottom: N_("You draw the bottom card of the deck instead of the top one."),
  swap_top_and_bottom: N_("The top and the bottom card of the deck change places; you still draw."),
  see_the_future: N_("You look at the top three cards of the deck."),
  super_see_the_future: N_("You look at the top five cards of the deck."),
  alter_the_future: N_("You look at the top three cards of the deck and put them back in the order you like."),
  super_alter_the_future: N_("You look at the top five cards of the deck and put them back in the order you like."),
  sneak_draw: N_("You take the top card of the deck and put it back wherever you like; you still draw."),
  black_cat: N_("Does nothing alone; play two or three alike, or five different cards, as a combo."),
  white_cat: N_("Does nothing alone; play two or three alike, or five different cards, as a combo."),
  grey_cat: N_("Does nothing alone; play two or three alike, or five different cards, as a combo."),
  red_cat: N_("Does nothing alone; play two or three alike, or five different cards, as a combo."),
  tabby_cat: N_("Does nothing alone; play two or three alike, or five different cards, as a combo."),
  feral_cat: N_("A wild cat: stands in for a cat of any colour in a cat combo, never with other cards."),
};

export const BURRITO_NAMES = {
  barky_sharky: N_("Barky Sharky"),
  logger_dogger: N_("Logger Dogger"),
  goth_sloth: N_("Goth Sloth"),
  nacho_llama: N_("Nacho Llama"),
  salsa_yeti: N_("Salsa Yeti"),
  guac_gator: N_("Guac Gator"),
  churro_bat: N_("Churro Bat"),
  brawl_a: N_("Brawl A"),
  brawl_b: N_("Brawl B"),
  war: N_("War"),
  duel: N_("Duel"),
};

export const FIGHT_OF = {"brawl_a": "brawl", "brawl_b": "brawl", "war": "war", "duel": "duel"};
export const BURRITO_NORMAL = ["barky_sharky", "logger_dogger", "goth_sloth", "nacho_llama", "salsa_yeti", "guac_gator", "churro_bat"];
export const KITTEN_CATS = ["black_cat", "white_cat", "grey_cat", "red_cat", "tabby_cat", "feral_cat"];
export const KITTEN_TARGETED = ["favor", "targeted_attack"];
