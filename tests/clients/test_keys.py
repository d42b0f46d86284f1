"""The terminal turns raw bytes into the key names the games bind (003: shift+arrows, Enter)."""

from cardroom.clients.terminal.keys import KeyReader


def test_letters_and_digits_are_their_own_keys() -> None:
    assert KeyReader().feed("dD3 ?") == ["d", "D", "3", " ", "?"]


def test_enter_arrives_as_enter_whatever_the_line_ending() -> None:
    reader = KeyReader()
    assert reader.feed("\r") == ["enter"]
    assert reader.feed("\n") == ["enter"]
    assert reader.feed("\r\n") == ["enter"]


def test_shift_arrows_for_reordering_alter_the_future() -> None:
    """003: shift and the vertical arrows move the card under the cursor."""
    assert KeyReader().feed("\x1b[1;2A\x1b[1;2B\x1b[A\x1b[B") == ["shift+up", "shift+down", "up", "down"]


def test_an_escape_sequence_split_across_reads_is_kept_whole() -> None:
    reader = KeyReader()
    assert reader.feed("\x1b[1;") == []
    assert reader.feed("2A") == ["shift+up"]


def test_a_lone_escape_at_the_end_of_input_is_the_escape_key() -> None:
    reader = KeyReader()
    assert reader.feed("\x1b") == ["escape"]
    assert reader.flush() == []


def test_unknown_sequences_and_control_bytes_are_dropped() -> None:
    assert KeyReader().feed("\x1b[99Zx\x01") == ["x"]
