#!/usr/bin/env bash
# tests/web/run.sh path/to/ttt SCREENSHOT_DIR: the end-to-end test of the page (tests/web/e2e.mjs). Installs
# playwright-core into tests/web/node_modules from the lockfile when it is missing (never a browser: Debian's
# chromium is used). Fails loudly when node, npm or chromium is missing: it never passes without running.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for tool in node npm /usr/bin/chromium; do
    command -v "$tool" >/dev/null || { echo "web e2e: $tool not found (run scripts/setup.sh)" >&2; exit 1; }
done
if [[ ! -d $here/node_modules/playwright-core ]]; then
    (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) >&2
fi
exec node "$here/e2e.mjs" "$@"
