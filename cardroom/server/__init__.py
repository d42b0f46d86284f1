"""The online room: an authoritative server, its lobby and tables, over websockets."""
