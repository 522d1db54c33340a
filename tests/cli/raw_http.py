#!/usr/bin/env python3
"""tests/cli/raw_http.py PORT SECONDS: sends stdin's bytes as they are to 127.0.0.1:PORT, prints what comes back
until the server closes the connection, and exits 0; exits 3 when the server neither answered in full nor
closed within SECONDS (it holds the connection), 1 when it could not connect. For requests curl will not send."""
import socket
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
request = sys.stdin.buffer.read()
try:
    s = socket.create_connection(("127.0.0.1", port), timeout=seconds)
except OSError as e:
    print(f"raw_http: cannot connect: {e}", file=sys.stderr)
    sys.exit(1)
deadline = time.monotonic() + seconds
answer = b""
try:
    s.sendall(request)
    while True:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        data = s.recv(65536)
        if not data:
            break
        answer += data
except socket.timeout:
    sys.stdout.buffer.write(answer)
    sys.exit(3)
except OSError:
    pass  # reset by the server after its answer: what came is the answer
sys.stdout.buffer.write(answer)
