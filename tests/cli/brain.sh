#!/usr/bin/env bash
# tests/cli/brain.sh - `ttt brain` driven by a scripted Gomocup manager (brain_manager.py, Python standard
# library only): every command, the errors, TAKEBACK, RESTART, full games on 15x15, 12x9, 20x20, 20x6 and,
# through the extension keys, 3x3, 4x4k3 and misere 3x3.
TTT=${1:?usage: $0 path/to/ttt}
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
exec timeout 600 python3 "$(dirname "$0")/brain_manager.py" "$TTT"
