"""Websocket close codes the server uses, by name (4000-4999 are the application's range)."""

NORMAL = 1000
GOING_AWAY = 1001
MESSAGE_TOO_BIG = 1009
PROTOCOL_MISMATCH = 4000
NOT_HELLO = 4001
NO_HELLO = 4011
BAD_TOKEN = 4002
REPLACED = 4003
SLOW_CONSUMER = 4008
TOO_MANY_CONNECTIONS = 4013
FLOOD = 4029

REASONS = {
    PROTOCOL_MISMATCH: "protocol version not supported",
    NOT_HELLO: "the first message must be hello",
    NO_HELLO: "no hello came in time",
    BAD_TOKEN: "unknown or expired session token",
    REPLACED: "the same player connected again elsewhere",
    SLOW_CONSUMER: "this connection could not keep up and was dropped; reconnect to resync",
    TOO_MANY_CONNECTIONS: "too many connections from this address",
    FLOOD: "too many messages",
}
