"""cardroom: fast party card games, played together online or in a terminal."""

__version__ = "0.1.0"

from cardroom.native import use as _use_native

_use_native()
