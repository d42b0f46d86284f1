"""A cluster of nodes: what several server processes share (the bus) and how each table is
owned by exactly one of them (leases and fencing numbers). See docs/deploy.md."""
