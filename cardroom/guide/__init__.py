"""The guided first game of each game (issue 24): a scripted deal played step by step with a coach.

The steps are data (`steps.py`: one list of `Step` records per game); `coach.py` runs them on a
real table of the real engine, with scripted bots and a play clock that stands still while the
coach waits for the player, so no timer makes a first-timer lose (docs/guide.md).
"""
