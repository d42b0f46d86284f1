"""Every event the Throw Throw Burrito table emits, and its fields.

An event is `Event(kind, data, secret, knowers, public)`: `data` is public, `secret` is seen
only by `knowers`. Public data never names a face-down card. Seats are 0..n-1; times are ms
of play time. Every event's data holds `at`: when it happened (a timer's own moment, even
when a driver runs several timers in one `advance`).

Round and play
- `round_start` {round, hand_sizes, pile_sizes, community_sizes}: a fresh setup was dealt.
- `hand` (private to `player`) {player} secret {cards}: the five cards dealt to that hand.
- `countdown` {beat: "3"|"2"|"1"|"burrito", caller: seat|null, round}: the play countdown
  (round start: caller null; after a fight: the fight's caller). Play resumes at "burrito".
- `draw` {player, from: "own"|"community", pile?: 0|1} secret {card} to the drawer.
- `discard` {player, to: left neighbour} secret {card} to the discarder only.
- `set` {player, card, score}: three normal cards went face up to the score pile.

Fights
- `call` {player, fight: "brawl"|"war"|"duel", card, targets?: [i, j], score}: a valid call;
  the three battle cards are on the caller's score pile.
- `mistake` {player, what: "call"|"grab"|"catch", fight?}: the player loses the fight (a
  `fight_over` with reason "mistake" follows, or `eliminated` in a tie-break).
- `fight_start` {kind: "brawl"|"war"|"duel", fighters, caller: seat|null,
  tiebreak: null|"round_tie"|"badge", timeout_at, go_at? (duels: when "Burrito!" is said),
  merged?: true, callers? (when simultaneous calls made one War of everybody)}. Also sent
  again after a `fight_tie`, for the fight that settles the tie.
- `duel_beat` {beat: "3"|"2"|"1"|"burrito", fighters}: a duel's countdown; a throw before
  "burrito" is a false start.
- `grab` {player, free}: the player took a burrito; `free` burritos are left on the table.
- `behind_back` {player, leaves_at} secret {target} to the thrower: a delayed first throw
  (two players: the caller; small room: every fighter), announced as `throw` when it leaves.
- `throw` {thrower, target, id, lands_at, catch_from, flight_ms}: a burrito is in the air;
  the target may `dodge` until it lands and `catch` from `catch_from` (before: a fumble).
- `dodge` {player, ids, until}: the burritos `ids` will miss; no dodge again before `until`.
- `catch` {player, thrower, id}: a clean catch; the thrower loses.
- `fumble` {player, thrower, id}: a catch too early: a hit on `player` at that moment.
- `hit` {player, thrower, id}: a burrito hit a fighter.
- `miss` {thrower, target, id, reason: "dodged"|"not_fighting", free}: it landed; it may be
  grabbed again.
- `fight_tie` {players, kind: "duel"|"war"}: hits within `tie_ms`; those players settle it.
- `false_start` {player, go_at}: a duelist threw before "Burrito!".
- `stalling` {player}: the fight timed out; this fighter acted least recently.
- `eliminated` {player, reason}: out of a tie-break fight (round tie or badge duel).
- `fight_over` {loser, bruise: bool, reason: "hit"|"caught"|"mistake"|"false_start"|
  "stalling", kind, bruises_left (fights with a bruise), winner and tiebreak (tie-breaks)}.

Round and game
- `round_over` {round, scores, reason: "bruises"|"no_battle_sets"|"idle", winner: seat|null,
  tied?: [seats]}: a tie is settled by a tie-break fight (`fight_start` with `tiebreak`).
- `round_won` {round, player}.
- `badge` {player}: round 1's winner takes the badge.
- `game_over` {winner, badge}.
"""

from __future__ import annotations

EVENT_KINDS: tuple[str, ...] = (
    "round_start",
    "hand",
    "countdown",
    "draw",
    "discard",
    "set",
    "call",
    "mistake",
    "fight_start",
    "duel_beat",
    "grab",
    "behind_back",
    "throw",
    "dodge",
    "catch",
    "fumble",
    "hit",
    "miss",
    "fight_tie",
    "false_start",
    "stalling",
    "eliminated",
    "fight_over",
    "round_over",
    "round_won",
    "badge",
    "game_over",
)
