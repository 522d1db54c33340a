"""The package's declarations (python/ttt/_lib.py) against the headers: cffi lays the structs out from its own
copy of them, so every size and offset is compared with what the C compiler says of include/ttt/*.h. A field
added to a header without the package following fails here instead of corrupting memory."""

import os
import subprocess

import pytest

from ttt._lib import ffi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every struct of the cdef whose layout the package relies on, with its fields.
STRUCTS = {
    "ttt_error": ["msg"],
    "ttt_rules": ["rows", "cols", "k", "misere"],
    "ttt_bits": ["w"],
    "ttt_board": ["rules", "stones", "ply", "cells", "line_owner", "hash"],
    "ttt_search_info": ["nodes", "ms", "depth", "value_name", "value"],
    "ttt_move_eval": ["move", "kind", "result", "plies", "score", "share"],
    "ttt_analysis": ["count", "moves", "method", "info"],
    "ttt_engine_about": ["name", "summary", "options"],
    "ttt_level": ["name", "spec", "about"],
    "ttt_count_tally": ["total", "x_wins", "o_wins", "draws"],
    "ttt_counts": ["rules", "plies", "positions", "positions_sym", "games", "games_sym", "all_positions",
                   "all_positions_sym", "all_games", "all_games_sym"],
    "ttt_limits": ["nodes", "ms", "depth", "progress", "user"],
    "ttt_move_score": ["move", "score", "exact"],
    "ttt_search_result": ["score", "proven", "depth", "count", "moves", "best_count", "nodes", "ms", "stopped"],
    "ttt_arena_record": ["wins", "losses", "draws"],
    "ttt_arena_pair": ["a", "b", "total", "a_as_x", "a_as_o", "a_forfeits", "b_forfeits"],
    "ttt_arena_options": ["specs", "nspecs", "games", "seed", "jobs", "gauntlet", "progress", "user",
                          "forfeit"],
    "ttt_arena_stats": ["games", "score", "elo", "elo_low", "elo_high", "los", "draw_ratio"],
}

# Constants the package copies from the headers.
CONSTANTS = {
    "TTT_MAX_SIDE": "MAX_SIDE",
    "TTT_MAX_CELLS": "MAX_CELLS",
    "TTT_POSITION_TEXT_SIZE": "POSITION_TEXT_SIZE",
    "TTT_RULES_TEXT_SIZE": "RULES_TEXT_SIZE",
    "TTT_MOVE_TEXT_SIZE": "MOVE_TEXT_SIZE",
    "TTT_SPEC_TEXT_SIZE": "SPEC_TEXT_SIZE",
    "TTT_ARENA_MAX_ENGINES": "ARENA_MAX_ENGINES",
    "TTT_ARENA_MAX_JOBS": "ARENA_MAX_JOBS",
    "TTT_ARENA_MAX_GAMES": "ARENA_MAX_GAMES",
    "TTT_ARENA_MAX_SEED": "ARENA_MAX_SEED",
    "TTT_COUNT_MAX_CELLS": "COUNT_MAX_CELLS",
}

# Enumerators the package uses by value.
ENUMS = ["TTT_OK", "TTT_EINVAL", "TTT_ENOMEM", "TTT_ELIMIT", "TTT_ESTATE", "TTT_EIO", "TTT_EFORFEIT", "TTT_X", "TTT_O",
         "TTT_NOBODY", "TTT_ONGOING", "TTT_X_WINS", "TTT_O_WINS", "TTT_DRAW", "TTT_EVAL_NONE", "TTT_EVAL_EXACT",
         "TTT_EVAL_SCORE"]


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory):
    """name -> value as the C compiler sees the headers: sizeof/offsetof of the structs, the constants."""
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "ttt/ttt.h"', "int main(void)", "{"]
    for struct, fields in STRUCTS.items():
        lines.append('printf("sizeof %s %%zu\\n", sizeof(%s));' % (struct, struct))
        for f in fields:
            lines.append('printf("offsetof %s.%s %%zu\\n", offsetof(%s, %s));' % (struct, f, struct, f))
    for name in list(CONSTANTS) + ENUMS:
        lines.append('printf("value %s %%lld\\n", (long long)(%s));' % (name, name))
    lines += ["return 0;", "}"]
    d = tmp_path_factory.mktemp("abi")
    (d / "abi.c").write_text("\n".join(lines) + "\n")
    cc = os.environ.get("TTT_CC", "cc")
    try:
        subprocess.run([cc, "-std=c17", "-I", os.path.join(ROOT, "include"), str(d / "abi.c"), "-o",
                        str(d / "abi")], check=True, capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("no C compiler (%s) to read the headers' layout" % cc)
    except subprocess.CalledProcessError as e:
        pytest.fail("compiling the layout probe failed:\n" + e.stderr)
    out = subprocess.run([str(d / "abi")], check=True, capture_output=True, text=True).stdout
    return {" ".join(line.split()[:2]): int(line.split()[2]) for line in out.splitlines()}


@pytest.mark.parametrize("struct", sorted(STRUCTS))
def test_struct_layout_matches_the_headers(c_layout, struct):
    assert ffi.sizeof(struct) == c_layout["sizeof " + struct], struct
    for f in STRUCTS[struct]:
        assert ffi.offsetof(struct, f) == c_layout["offsetof %s.%s" % (struct, f)], "%s.%s" % (struct, f)


def test_constants_match_the_headers(c_layout):
    from ttt import _lib

    for c_name, py_name in CONSTANTS.items():
        assert getattr(_lib, py_name) == c_layout["value " + c_name], c_name
    for name in ENUMS:
        assert getattr(_lib.lib, name) == c_layout["value " + name], name


def test_versions_agree():
    import re

    import ttt

    header = open(os.path.join(ROOT, "include", "ttt", "common.h")).read()
    pyproject = open(os.path.join(ROOT, "python", "pyproject.toml")).read()
    version = re.search(r'#define TTT_VERSION "([^"]+)"', header).group(1)
    assert ttt.__version__ == version
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == version
