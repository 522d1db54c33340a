-- bench/web/analyse.lua: wrk script for POST /api/analyse (the body is ANALYSE_BODY, or 3x3 after a1).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("ANALYSE_BODY") or '{"rules": "3x3", "moves": "a1"}'
