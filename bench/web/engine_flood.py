#!/usr/bin/env python3
"""bench/web/engine_flood.py PORT [--connections N] [--seconds S]: one client keeps the engines busy, another plays.

N keep-alive connections (default 32, the default per-address limit) from 127.0.0.3 send engine-bound analyses
(9x9k5, montecarlo for up to 2 s) one after another for S seconds (default 15); meanwhile a client from
127.0.0.254 reads its own game every 0.1 s. Prints what the flood got (status counts) and the other client's
latency: it should not wait for the flood's engines. Loopback only, bounded (N <= 64, S <= 120).
"""
import argparse
import http.client
import json
import sys
import threading
import time

FLOOD_FROM, PLAYER_FROM = "127.0.0.3", "127.0.0.254"
BODY = json.dumps({"rules": "9x9k5", "moves": "e5", "engine": "montecarlo:time=2000", "ms": 2000})
JSON = {"Content-Type": "application/json"}


def connect(port, source):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("port", type=int)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=15)
    a = ap.parse_args()
    if not 1 <= a.connections <= 64 or not 0 < a.seconds <= 120:
        ap.error("--connections 1..64, --seconds up to 120")
    c = connect(a.port, PLAYER_FROM)
    c.request("POST", "/api/games", "{}", JSON)
    game = json.loads(c.getresponse().read())["id"]
    c.close()

    until = time.monotonic() + a.seconds
    codes, lock = {}, threading.Lock()

    def flood():
        c = connect(a.port, FLOOD_FROM)
        while time.monotonic() < until:
            try:
                c.request("POST", "/api/analyse", BODY, JSON)
                r = c.getresponse()
                r.read()
                key = r.status
            except (OSError, http.client.HTTPException) as e:
                key = type(e).__name__
                c = connect(a.port, FLOOD_FROM)
            with lock:
                codes[key] = codes.get(key, 0) + 1
            if key == 429:
                time.sleep(0.01)  # refused at once: do not spin

    threads = [threading.Thread(target=flood) for _ in range(a.connections)]
    for t in threads:
        t.start()
    time.sleep(1)  # the flood is in flight
    times, failed = [], 0
    while time.monotonic() < until:
        t0 = time.monotonic()
        try:
            c = connect(a.port, PLAYER_FROM)
            c.request("GET", "/api/games/" + game)
            r = c.getresponse()
            r.read()
            c.close()
            if r.status == 200:
                times.append(time.monotonic() - t0)
            else:
                failed += 1
        except (OSError, http.client.HTTPException):
            failed += 1
        time.sleep(0.1)
    for t in threads:
        t.join()
    times.sort()
    print(f"flood from {FLOOD_FROM} ({a.connections} connections): " +
          ", ".join(f"{n} x {k}" for k, n in sorted(codes.items(), key=str)))
    if times:
        print(f"game reads from {PLAYER_FROM}: {len(times)} of {len(times) + failed} answered 200, "
              f"p50 {1000 * times[len(times) // 2]:.0f} ms, max {1000 * times[-1]:.0f} ms")
    return 0 if times and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
