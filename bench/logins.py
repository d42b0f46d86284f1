"""Logins a second as the login limiter fills (issue 22): refused logins, each with a new name,
from one address against a real server, the rate printed for each block of them.

Names longer than 24 characters cost no password hash (no account can have one), so what is
measured is the server's own work per attempt, the limiter's included: a limiter that slows
down as it holds more keys shows as falling rates. `python -m bench.logins --blocks 7`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import time
from urllib.parse import urlparse

from cardroom.server.process import run_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--blocks", type=int, default=7, help="blocks of attempts (default 7)")
    parser.add_argument("--block", type=int, default=2000, help="attempts per block (default 2000)")
    args = parser.parse_args()
    with run_server() as server:
        where = urlparse(server.url)
        conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        sent = 0
        for block in range(args.blocks):
            started = time.perf_counter()
            for _ in range(args.block):
                sent += 1
                body = json.dumps({"name": f"a name no account has, number {sent}", "password": "x" * 12})
                conn.request("POST", "/api/login", body, headers)
                conn.getresponse().read()
            rate = args.block / (time.perf_counter() - started)
            print(f"attempts {block * args.block + 1:>6} to {sent:>6}: {rate:7.0f} a second", flush=True)
        conn.close()


if __name__ == "__main__":
    main()
