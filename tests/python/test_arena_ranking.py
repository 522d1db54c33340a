"""ttt.arena's ranking: every engine, best first, as `ttt arena` prints it, its records summed over its pairs."""

import ttt


def test_arena_ranking_sums_each_engines_pairs():
    specs = ["random", "minimax", "mcts:iterations=30"]
    result = ttt.arena(specs, games=6, seed=2)
    ranking = result["ranking"]
    assert [r["rank"] for r in ranking] == [1, 2, 3]
    assert sorted(r["engine"] for r in ranking) == sorted(specs)
    scores = [r["score"] for r in ranking]
    assert scores == sorted(scores, reverse=True)
    for r in ranking:
        mine = [p for p in result["pairs"] if r["engine"] in (p["a"], p["b"])]
        assert r["games"] == 12 == r["wins"] + r["losses"] + r["draws"]
        assert r["wins"] == sum(p["wins"] if p["a"] == r["engine"] else p["losses"] for p in mine)
        assert r["draws"] == sum(p["draws"] for p in mine)
        assert abs(r["score"] - (r["wins"] + r["draws"] / 2) / 12) < 1e-9
    # minimax never loses on 3x3, random never beats it: minimax is first.
    assert ranking[0]["engine"] == "minimax"


def test_arena_ranking_of_two_engines():
    result = ttt.arena(["minimax", "random"], games=4)
    first, second = result["ranking"]
    assert (first["engine"], second["engine"]) == ("minimax", "random")
    assert first["wins"] == second["losses"] and first["draws"] == second["draws"]
