#!/usr/bin/env python3
"""bench/web/engine_flood.py PORT [options]: engine work from many connections against one client's game reads.

N keep-alive connections (--connections, default 32, the default per-address limit) send engine-bound analyses
(9x9k5 after e5, montecarlo for --ms, default 2000) one after another for S seconds (--seconds, default 15);
meanwhile one more keep-alive connection reads its own game, pausing --pause seconds between reads (default 0.1;
0: back to back). The flood comes from 127.0.0.3 and the reader from 127.0.0.254, or with --one-address both
from 127.0.0.1 (run the server with --per-address 0: one address standing for many). Prints what the flood got
(status counts) and the reader's answers per second and latency: a read needs no engine and should not wait
for the flood's. Loopback only, bounded (N <= 64, S <= 120).
"""
import argparse
import http.client
import json
import sys
import threading
import time

JSON = {"Content-Type": "application/json"}


def connect(port, source):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("port", type=int)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--ms", type=int, default=2000)
    ap.add_argument("--pause", type=float, default=0.1)
    ap.add_argument("--one-address", action="store_true")
    a = ap.parse_args()
    if not 1 <= a.connections <= 64 or not 0 < a.seconds <= 120 or not 1 <= a.ms <= 2000 or a.pause < 0:
        ap.error("--connections 1..64, --seconds up to 120, --ms 1..2000, --pause >= 0")
    flood_from, reader_from = ("127.0.0.1", "127.0.0.1") if a.one_address else ("127.0.0.3", "127.0.0.254")
    body = json.dumps({"rules": "9x9k5", "moves": "e5", "engine": f"montecarlo:time={a.ms}", "ms": a.ms})
    c = connect(a.port, reader_from)
    c.request("POST", "/api/games", "{}", JSON)
    game = json.loads(c.getresponse().read())["id"]

    until = time.monotonic() + a.seconds
    codes, lock = {}, threading.Lock()

    def flood():
        f = connect(a.port, flood_from)
        while time.monotonic() < until:
            try:
                f.request("POST", "/api/analyse", body, JSON)
                r = f.getresponse()
                r.read()
                key = r.status
            except (OSError, http.client.HTTPException) as e:
                key = type(e).__name__
                f = connect(a.port, flood_from)
            with lock:
                codes[key] = codes.get(key, 0) + 1
            if key == 429:
                time.sleep(0.01)  # refused at once: do not spin

    threads = [threading.Thread(target=flood) for _ in range(a.connections)]
    for t in threads:
        t.start()
    time.sleep(1)  # the flood is in flight
    times, failed, start = [], 0, time.monotonic()
    while time.monotonic() < until:
        t0 = time.monotonic()
        try:
            c.request("GET", "/api/games/" + game)
            r = c.getresponse()
            r.read()
            if r.status == 200:
                times.append(time.monotonic() - t0)
            else:
                failed += 1
        except (OSError, http.client.HTTPException):
            failed += 1
            c = connect(a.port, reader_from)
        time.sleep(a.pause)
    elapsed = time.monotonic() - start
    for t in threads:
        t.join()
    times.sort()
    print(f"flood from {flood_from} ({a.connections} connections): " +
          ", ".join(f"{n} x {k}" for k, n in sorted(codes.items(), key=str)))
    if times:
        print(f"game reads from {reader_from}: {len(times)} of {len(times) + failed} answered 200 in "
              f"{elapsed:.1f} s ({len(times) / elapsed:.1f}/s), p50 {1000 * times[len(times) // 2]:.1f} ms, "
              f"max {1000 * times[-1]:.0f} ms")
    else:
        print(f"game reads from {reader_from}: none answered in {elapsed:.1f} s, {failed} failed")
    return 0 if times and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
