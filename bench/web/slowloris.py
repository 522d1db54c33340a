#!/usr/bin/env python3
"""bench/web/slowloris.py: slow clients against `ttt serve` on loopback, and normal requests meanwhile.

Opens --sockets connections that each send a request head one header line every --interval seconds (never
finishing it; a socket the server closes is opened again, at most --reopen per second in all), spread over the
source addresses --from (127.0.0.1, or a range 127.0.0.2-127.0.0.21). Meanwhile --clients threads from
--normal-from send GET --path one after another for --seconds, each on a new connection and with a
--timeout seconds bound. Prints the share of normal requests answered 200 and their p50/p99 latency, and
how many slow sockets were still open at the end (a socket the server has not accepted yet counts as open:
it waits in the listen queue).

Loopback only: the target and every source address must be in 127.0.0.0/8. Bounded: at most 2000 sockets
and 300 s; stops by itself. Exit 0 when every normal request was answered 200, 1 otherwise (2: bad usage).
Used by bench/web/slowloris.sh (the README's figures) and tests/cli/serve_slow.sh (a short run).
"""
import argparse
import http.client
import ipaddress
import socket
import sys
import threading
import time

MAX_SOCKETS = 2000
MAX_SECONDS = 300
LOOPBACK = ipaddress.ip_network("127.0.0.0/8")


def loopback(text):
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an IPv4 address")
    if addr not in LOOPBACK:
        raise argparse.ArgumentTypeError(f"'{text}' is not a loopback address (127.0.0.0/8)")
    return str(addr)


def address_range(text):
    """'127.0.0.2-127.0.0.21' or one address -> the list of addresses."""
    first, _, last = text.partition("-")
    lo = ipaddress.ip_address(loopback(first))
    hi = ipaddress.ip_address(loopback(last)) if last else lo
    if hi < lo or int(hi) - int(lo) >= 1024:
        raise argparse.ArgumentTypeError(f"'{text}': expected FIRST-LAST with at most 1024 addresses")
    return [str(ipaddress.ip_address(a)) for a in range(int(lo), int(hi) + 1)]


class Slow:
    """The slow sockets: one thread keeps every one of them dribbling header lines."""

    def __init__(self, host, port, sources, count, interval, reopen):
        self.host, self.port, self.sources = host, port, sources
        self.count, self.interval, self.reopen = count, interval, reopen
        self.socks = [None] * count  # (socket, lines sent) or None when closed
        self.opened = self.closed_by_server = self.refused = self.reopened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def open(self, i):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((self.sources[i % len(self.sources)], 0))
            s.settimeout(2)
            s.connect((self.host, self.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: " + self.host.encode() + b"\r\n")
            s.setblocking(False)
        except OSError:
            s.close()
            self.refused += 1
            return None
        self.opened += 1
        return (s, 0)

    def alive(self, s):
        try:
            data = s.recv(4096)
        except BlockingIOError:
            return True
        except OSError:
            return False
        return False if not data else True  # the server answered or closed: either way it let go

    def run(self):
        # Opening: spread over one interval, so the header lines stay spread too.
        for i in range(self.count):
            if self.stop.is_set():
                return
            self.socks[i] = self.open(i)
            time.sleep(self.interval / self.count)
        n = 0
        started = time.monotonic()
        while not self.stop.wait(self.interval / self.count):
            i = n % self.count
            n += 1
            entry = self.socks[i]
            if entry is not None:
                s, lines = entry
                try:
                    if not self.alive(s):
                        raise OSError
                    s.send(b"X-Slow-%d: a\r\n" % lines)
                    self.socks[i] = (s, lines + 1)
                    continue
                except OSError:
                    s.close()
                    self.socks[i] = None
                    self.closed_by_server += 1
            if self.reopened < self.reopen * (time.monotonic() - started):  # at most --reopen per second
                self.reopened += 1
                self.socks[i] = self.open(i)

    def held(self):
        return sum(1 for e in self.socks if e is not None and self.alive(e[0]))

    def close(self):
        self.stop.set()
        self.thread.join()
        for e in self.socks:
            if e is not None:
                e[0].close()


def normal_client(host, port, source, path, timeout, until, results, lock):
    while time.monotonic() < until:
        t0 = time.monotonic()
        status = None
        try:
            c = http.client.HTTPConnection(host, port, timeout=timeout, source_address=(source, 0))
            c.request("GET", path, headers={"Connection": "close"})
            r = c.getresponse()
            r.read()
            status = r.status
            c.close()
        except (OSError, http.client.HTTPException):
            pass
        with lock:
            results.append((status, time.monotonic() - t0))
        if status is None:
            time.sleep(0.05)  # a refused connection comes back at once: do not spin


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("port", type=int)
    ap.add_argument("--host", type=loopback, default="127.0.0.1")
    ap.add_argument("--sockets", type=int, default=500)
    ap.add_argument("--from", dest="sources", type=address_range, default=["127.0.0.1"])
    ap.add_argument("--interval", type=float, default=3.0, help="seconds between a slow socket's lines")
    ap.add_argument("--reopen", type=int, default=100, help="slow sockets reopened per second at most")
    ap.add_argument("--normal-from", type=loopback, default="127.0.0.254")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--path", default="/api/engines")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--seconds", type=float, default=20.0, help="of normal requests, after the opening")
    a = ap.parse_args()
    if not 1 <= a.sockets <= MAX_SOCKETS or not 0 < a.seconds <= MAX_SECONDS or not 0 < a.interval <= 60:
        ap.error(f"--sockets 1..{MAX_SOCKETS}, --seconds up to {MAX_SECONDS}, --interval up to 60")
    if not 1 <= a.clients <= 64 or not 0 < a.timeout <= 60 or a.reopen < 1:
        ap.error("--clients 1..64, --timeout up to 60, --reopen at least 1")

    slow = Slow(a.host, a.port, a.sources, a.sockets, a.interval, a.reopen)
    slow.thread.start()
    time.sleep(a.interval + 0.5)  # every slow socket opened and has sent its first line
    print(f"slow sockets: {slow.held()} of {a.sockets} still open after the opening, accepted or queued "
          f"(from {a.sources[0]}{'..' + a.sources[-1] if len(a.sources) > 1 else ''})", flush=True)
    results, lock = [], threading.Lock()
    until = time.monotonic() + a.seconds
    clients = [threading.Thread(target=normal_client,
                                args=(a.host, a.port, a.normal_from, a.path, a.timeout, until, results, lock))
               for _ in range(a.clients)]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    held = slow.held()
    slow.close()

    ok = [t for s, t in results if s == 200]
    share = 100.0 * len(ok) / len(results) if results else 0.0
    print(f"slow sockets: {held} still open at the end; {slow.opened} opened, {slow.closed_by_server} closed "
          f"by the server, {slow.refused} refused")
    print(f"normal requests: {len(ok)} of {len(results)} answered 200 ({share:.1f}%), "
          f"p50 {1000 * percentile(ok, 50):.0f} ms, p99 {1000 * percentile(ok, 99):.0f} ms "
          f"(GET {a.path} from {a.normal_from}, {a.clients} clients, timeout {a.timeout:g} s)")
    return 0 if results and len(ok) == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
