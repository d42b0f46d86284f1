"""How the Orca test judges what a listener heard (tests/web/heard.py), on transcripts written
out here: what counts as said twice and as out of order (docs/speech.md, "Heard through Orca").
No browser and no Orca: the Orca runs themselves are tests/screenreader."""

from __future__ import annotations

from tests.web.heard import Line, compare
from tests.web.orca import Utterance


def _line(text: str, at: float, concerns: bool = True) -> Line:
    return Line(text, False, at, None, concerns)


def test_orca_reading_the_focused_card_is_not_the_drawn_card_said_twice() -> None:
    lines = [_line("Churro Bat.", 10.0)]
    heard = [Utterance(10.2, 10.8, "Churro Bat."), Utterance(20.0, 20.6, "Churro Bat, 1.")]
    assert compare(lines, heard).yours().twice == []


def test_a_line_orca_says_again_is_said_twice() -> None:
    lines = [_line("Brawl: you against Marco.", 10.0)]
    heard = [
        Utterance(10.2, 11.0, "Brawl: you against Marco."),
        Utterance(12.0, 12.8, "Brawl: you against Marco."),
    ]
    assert [x.text for x in compare(lines, heard).yours().twice] == ["Brawl: you against Marco."]


def test_a_line_about_you_may_overtake_one_that_is_not_but_not_another_about_you() -> None:
    lines = [
        _line("Round 1 begins.", 10.0, concerns=False),
        _line("Your hand: Churro Bat and Guac Gator.", 10.1),
        _line("Passed Guac Gator.", 12.0),
        _line("Drew War.", 12.1),
    ]
    heard = [
        Utterance(10.5, 12.0, "Your hand: Churro Bat and Guac Gator."),
        Utterance(12.0, 12.6, "Round 1 begins."),
        Utterance(12.7, 13.2, "Drew War."),
        Utterance(13.3, 14.0, "Passed Guac Gator."),
    ]
    hearing = compare(lines, heard)
    # (the line said after one the page placed later is the one out of order)
    assert [x.text for x in hearing.out_of_order] == [
        "Your hand: Churro Bat and Guac Gator.",
        "Drew War.",
    ]
    assert [x.text for x in hearing.yours().out_of_order] == ["Drew War."]


def test_a_line_the_players_own_key_flushed_at_once_is_reported_apart_and_a_later_key_is_no_excuse() -> None:
    """Orca drops the lines it has not begun when a key comes. A key within a person's reaction
    time of a line (0.3 s) was decided before the line could reach them: the line is reported
    as flushed, not as never sent. A line Orca held longer (its backlog) is never sent."""
    lines = [
        _line("Catch!", 10.0),
        _line("Incoming!", 10.4),  # a second burrito, 110 ms before the Space for the first
        _line("Hit!", 20.0),  # Orca busy with other words for a second, then a key
    ]
    heard = [Utterance(10.1, None, "Catch!"), Utterance(21.5, 22.0, "You lose.")]
    hearing = compare(lines, heard, keys=[10.51, 21.0]).yours()
    assert [x.text for x in hearing.flushed] == ["Incoming!"]
    assert [x.text for x in hearing.never] == ["Hit!"]
    assert hearing.cut == []  # "Catch!" stopped by the listener's own Space: heard as far as wanted
    assert "1 never sent, 1 flushed by the player's key at once" in hearing.figures()


def test_a_key_sent_just_before_a_line_but_reaching_orca_after_it_flushed_it_at_once() -> None:
    """Under load a key the listener sent before the page placed a line reached Orca 0.23 s
    after it (Orca's echo of the key says when), and flushed it: decided before the line, it
    is reported as flushed. A key that reached Orca well before the line is no excuse."""
    lines = [_line("Brawl: you against Marco.", 10.0), _line("Hit!", 20.0)]
    heard = [Utterance(10.23, 10.5, "d "), Utterance(19.5, 19.8, "g ")]
    hearing = compare(lines, heard, keys=[9.9, 19.45]).yours()
    assert [x.text for x in hearing.flushed] == ["Brawl: you against Marco."]
    assert [x.text for x in hearing.never] == ["Hit!"]


def test_a_key_sent_within_a_reaction_time_of_a_line_flushed_it_however_long_it_took_to_reach_orca() -> None:
    """The listener pressed Space for a first "Catch!" 0.15 s after the page placed a second one;
    the key reached Orca (its echo) 0.31 s after that line, past a reaction time, and Orca never
    sent the line: decided before the line could reach them, it is flushed, not never sent. A
    key sent a reaction time or more after a line is still no excuse."""
    lines = [
        Line("Catch!", True, 10.0, 1.2, True),
        Line("Catch!", True, 10.6, 1.2, True),
        Line("Hit!", True, 20.0, 3.0, True),
    ]
    heard = [
        Utterance(10.3, 10.7, "Catch!"),
        Utterance(10.91, 11.0, "space "),
        Utterance(20.5, 20.6, "space "),
    ]
    hearing = compare(lines, heard, keys=[10.75, 20.35]).yours()
    assert [x.text for x in hearing.flushed] == ["Catch!"]
    assert [x.text for x in hearing.never] == ["Hit!"]


def test_a_line_stopped_by_a_key_that_reached_orca_as_it_began_was_heard_as_far_as_wanted() -> None:
    """The listener pressed Space for the first of two "Catch!"; under load the key reached Orca
    (its echo) 0.7 s after it was sent, as Orca began the second "Catch!", and stopped it. That
    one was heard as far as the listener wanted, not cut."""
    lines = [Line("Catch!", True, 10.0, 1.2, True), Line("Catch!", True, 10.4, 1.2, True)]
    heard = [
        Utterance(10.3, 10.8, "Catch!"),
        Utterance(10.85, None, "Catch!"),
        Utterance(11.05, 11.2, "space "),
    ]
    hearing = compare(lines, heard, keys=[10.35]).yours()
    assert hearing.cut == [] and hearing.never == []


def test_a_line_about_the_past_an_answer_overtook_before_orca_began_it_is_reported_apart() -> None:
    """Orca drops the polite lines it has not begun when an assertive one comes, as the page does
    with the game's lines waiting for an answer's line: "Passed Salsa Yeti." with "Brawl: you
    against Marco." 0.2 s behind it is overtaken, not never sent. A line the answer came 2 s
    after (Orca had time to begin it) is never sent, and an answer's own line is never excused."""
    lines = [
        _line("Passed Salsa Yeti.", 10.0),
        Line("Brawl: you against Marco.", True, 10.2, 3.0),
        _line("Drew War.", 20.0),
        Line("Incoming!", True, 22.0, 0.8),
        Line("Catch!", True, 30.0, 0.6),
        Line("Incoming!", True, 30.2, 0.8),
    ]
    heard = [Utterance(10.5, 11.5, "Brawl: you against Marco."), Utterance(22.3, 22.7, "Incoming!")]
    hearing = compare(lines, heard).yours()
    assert [x.text for x in hearing.overtaken] == ["Passed Salsa Yeti."]
    assert [x.text for x in hearing.never] == ["Drew War.", "Catch!", "Incoming!"]
    assert hearing.problems()


def test_lines_said_again_are_matched_in_order_when_orca_said_them_as_often() -> None:
    """Two "Incoming!" 1.3 s apart, both said once Orca was done with the fight's start: each
    line has its utterance. A line the page placed again and Orca said once is the later line's
    ("Hit!" in the next fight): the earlier one was never sent."""
    lines = [
        Line("Incoming!", True, 15.78, 2.0),
        Line("Incoming!", True, 17.10, 2.0),
        _line("Hit!", 20.0),
        _line("Hit!", 50.0),
    ]
    heard = [
        Utterance(17.14, 17.5, "Incoming!"),
        Utterance(17.59, 17.9, "Incoming!"),
        Utterance(50.3, 50.6, "Hit!"),
    ]
    hearing = compare(lines, heard)
    assert hearing.never == [lines[2]]
    assert not hearing.twice and not hearing.late


def test_a_line_is_not_found_in_the_end_of_a_later_sentence() -> None:
    """A full run's burrito round (cc28t): the card drawn, "Goth Sloth.", placed 0.1 s before the
    urgent "War: you against Marco.", was never said; "Passed Goth Sloth.", a later line, was
    taken for it, and every line after it was reported out of order."""
    lines = [
        _line("Goth Sloth.", 10.0),
        Line("War: you against Marco.", True, 10.1, 3.0),
        _line("Caught!", 12.0),
        _line("Passed Goth Sloth.", 20.0),
    ]
    heard = [
        Utterance(11.0, 11.8, "War: you against Marco."),
        Utterance(12.3, 12.9, "Caught!"),
        Utterance(20.4, 21.0, "Passed Goth Sloth."),
    ]
    hearing = compare(lines, heard)
    assert [x.text for x in hearing.overtaken] == ["Goth Sloth."]  # an answer's line came 0.1 s after
    assert hearing.never == hearing.out_of_order == []
    assert [lines[i].text for i in hearing.found] == [x.text for x in lines[1:]]


def test_a_late_answer_line_is_shown_with_what_was_said_around_it() -> None:
    """A failure in CI names what held the line up: the page's lines and Orca's speech around it."""
    catch = Line("Catch!", True, 20.0, 1.2)
    lines = [_line("Brawl: you against Marco.", 19.5), catch]
    heard = [Utterance(19.6, 22.0, "Brawl: you against Marco."), Utterance(22.1, 22.4, "Catch!")]
    details = compare(lines, heard).yours().details()
    assert "late: Catch! (2.1 s > 1.2 s)" in details
    assert "around 'Catch!'" in details and "-0.40 orca ok  Brawl: you against Marco." in details
    assert "+2.10 orca ok  Catch!" in details


def test_a_prompt_placed_again_before_orca_began_it_is_heard_once_for_both_within_its_window() -> None:
    """Two burritos at the listener 0.54 s apart: Orca, 0.55 s behind, said "Catch!" once, for
    the second, 0.55 s after the first (window 1.2 s): heard in time, not a line lost. Begun
    after the first's window, the first is a line never sent."""
    first, second = Line("Catch!", True, 20.0, 1.2), Line("Catch!", True, 20.54, 1.2)
    hearing = compare([first, second], [Utterance(20.55, 20.9, "Catch!")]).yours()
    assert hearing.merged == [first] and not hearing.never and not hearing.problems()
    late = compare([first, second], [Utterance(21.3, 21.6, "Catch!")]).yours()
    assert late.never == [first] and late.problems()


def test_a_prompt_orca_began_as_the_page_placed_it_again_is_heard_once_for_both() -> None:
    """CI, stop 44: two "Catch!" 0.40 s apart; Orca began "Catch!" 0.39 s after the first, 0.01 s
    before the page placed the second (its clock and the page's may disagree by that much), and
    the listener's Space stopped it; they caught. Heard in time, once for both: not a line lost."""
    first, second = Line("Catch!", True, 20.0, 1.2), Line("Catch!", True, 20.40, 1.2)
    caught = Line("Caught!", False, 21.61, None)
    heard = [
        Utterance(20.39, None, "Catch!"),
        Utterance(20.67, 20.8, "space "),
        Utterance(21.95, 22.2, "Caught!"),
    ]
    hearing = compare([first, second, caught], heard, keys=[20.55]).yours()
    assert hearing.merged == [first] and not hearing.problems(), hearing.details()
