"""The voice of the Orca tests: speech-dispatcher's generic module runs this for each utterance.

It takes as long to "say" the text as a synthesiser would at the rate Orca asked for, and writes
one JSON line when it starts and one when it ends, with the wall-clock time (the page's
`Date.now()` is on the same clock). When Orca stops speech, speech-dispatcher kills this process:
an utterance with a start and no end was cut. `exec` in the module's command makes this process
the one that is killed.

    python orca_speak.py LOG RATE TEXT...
"""

from __future__ import annotations

import json
import os
import sys
import time

# Words a minute at speech-dispatcher's rate 0 (Orca's default rate, 50): espeak-ng's default.
WPM_AT_0 = 175


def words_a_minute(rate: int) -> float:
    """Speech-dispatcher's rate runs from -100 to 100; a synthesiser about triples its speed
    from 0 to 100 and thirds it from 0 to -100."""
    return float(WPM_AT_0 * 3 ** (max(-100, min(100, rate)) / 100))


def seconds_to_say(text: str, rate: int) -> float:
    return max(1, len(text.split())) * 60 / words_a_minute(rate)


def main(argv: list[str]) -> None:
    log, rate_arg, *words = argv
    rate = int(rate_arg) if rate_arg.lstrip("-").isdigit() else 0
    text = " ".join(words)
    with open(log, "a", encoding="utf-8") as out:
        out.write(json.dumps({"start": time.time(), "pid": os.getpid(), "rate": rate, "text": text}) + "\n")
    time.sleep(seconds_to_say(text, rate))
    with open(log, "a", encoding="utf-8") as out:
        out.write(json.dumps({"end": time.time(), "pid": os.getpid()}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
