"""The small game protocol both games share: events, rejections, tables, records."""

from cardroom.protocol.errors import CardroomError, InvalidAction, InvalidSetup
from cardroom.protocol.event import JSON, Event, Rejected
from cardroom.protocol.table import Bot, GameDef, Table

__all__ = [
    "JSON",
    "Bot",
    "CardroomError",
    "Event",
    "GameDef",
    "InvalidAction",
    "InvalidSetup",
    "Rejected",
    "Table",
]
