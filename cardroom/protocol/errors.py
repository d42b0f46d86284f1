"""Errors for input whose *shape* is wrong.

A move that is legal in shape but not allowed now is not an exception: the engine returns a
`Rejected` value. These exceptions are for things no game state could accept (an unknown card,
a seat that does not exist, a deal that breaks a rule), so that callers can tell a bad file or
message from a refused move.
"""


class CardroomError(ValueError):
    """Base of every input error the project raises on purpose."""


class InvalidSetup(CardroomError):
    """Options, variant, player count or deal that cannot make a table."""


class InvalidAction(CardroomError):
    """An action whose shape is wrong: unknown kind or card, missing field, no such seat."""
