"""The live patches must turn the last message into the next one, exactly."""

from __future__ import annotations

import copy
import random

import jsonpatch

from app.sessions.patch import make_patch


def random_tree(rng: random.Random, depth: int = 0):
    kind = rng.random()
    if depth > 3 or kind < 0.3:
        return rng.choice([None, True, 0, 1, "a", "b/c", "d~e", 2.5])
    if kind < 0.65:
        return {rng.choice("xyz/~") + str(i): random_tree(rng, depth + 1) for i in range(rng.randint(0, 4))}
    return [random_tree(rng, depth + 1) for _ in range(rng.randint(0, 5))]


def mutate(rng: random.Random, tree):
    tree = copy.deepcopy(tree)
    if isinstance(tree, dict) and tree and rng.random() < 0.8:
        key = rng.choice(list(tree))
        if rng.random() < 0.2:
            del tree[key]
        else:
            tree[key] = mutate(rng, tree[key])
        if rng.random() < 0.3:
            tree["new" + str(rng.randint(0, 9))] = random_tree(rng)
        return tree
    if isinstance(tree, list) and rng.random() < 0.8:
        drop = rng.randint(0, len(tree))
        return tree[drop:] + [random_tree(rng) for _ in range(rng.randint(0, 3))]
    return random_tree(rng)


def test_patches_reproduce_the_new_message():
    rng = random.Random(6902)
    for _ in range(3000):
        old = random_tree(rng)
        new = mutate(rng, old)
        patch = make_patch(old, new)
        assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new, (old, new, patch)


def test_a_sliding_log_becomes_removals_and_appends():
    old = {"seq": 4, "log": [{"seq": n, "text": f"move {n}"} for n in range(1, 31)]}
    new = {"seq": 5, "log": old["log"][1:] + [{"seq": 31, "text": "move 31"}]}
    patch = make_patch(old, new)
    assert patch == [{"op": "replace", "path": "/seq", "value": 5},
                     {"op": "remove", "path": "/log/0"},
                     {"op": "add", "path": "/log/-", "value": {"seq": 31, "text": "move 31"}}]


def test_true_is_not_one_in_json():
    patch = make_patch({"a": 1, "b": [1.0]}, {"a": True, "b": [1]})
    assert jsonpatch.apply_patch({"a": 1, "b": [1.0]}, patch) == {"a": True, "b": [1]}
    assert patch and all(op["op"] == "replace" for op in patch)


def test_equal_messages_need_no_patch():
    assert make_patch({"a": [1, 2]}, {"a": [1, 2]}) == []


def test_a_list_changed_in_the_middle_patches_only_what_changed():
    hand = [{"id": f"c{n}", "text": "a long card text " * 4} for n in range(6)]
    old = {"hand": hand, "seats": [{"id": "p1", "cards": 7}, {"id": "p2", "cards": 5}]}
    new = {"hand": hand[:2] + hand[3:], "seats": [{"id": "p1", "cards": 6}, {"id": "p2", "cards": 5}]}
    patch = make_patch(old, new)
    assert patch == [{"op": "remove", "path": "/hand/2"}, {"op": "replace", "path": "/seats/0/cards", "value": 6}]
    assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new


def test_shared_parts_are_diffed_once_with_the_same_result():
    rng = random.Random(61)
    memo: dict = {}
    for _ in range(500):
        shared_old = random_tree(rng)
        shared_new = mutate(rng, shared_old)
        olds = [{"board": shared_old, "mine": random_tree(rng)} for _ in range(3)]
        news = [{"board": shared_new, "mine": mutate(rng, o["mine"])} for o in olds]
        for old, new in zip(olds, news, strict=True):
            patch = make_patch(old, new, memo=memo)
            assert patch == make_patch(old, new)
            assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new


def test_views_share_equal_parts_and_never_mix_true_with_one():
    from app.sessions.replay import LoadedMatch
    from app.sessions.views import share

    loaded = LoadedMatch("m", None, b"", 1, None, [])  # type: ignore[arg-type]
    a = share(loaded, {"board": {"x": {"n": 1}, "e": {}, "f": True}, "hand": [1, 2]})
    b = share(loaded, {"board": {"x": {"n": 1}, "e": {}, "f": True}, "hand": [1, 3]})
    c = share(loaded, {"board": {"x": {"n": 1}, "e": {}, "f": 1}, "hand": [1, 2]})
    assert a["board"] is b["board"] and a["board"]["x"] is c["board"]["x"]
    assert c["board"] is not a["board"] and c["board"]["f"] is not True and a["hand"] is c["hand"]
    assert a == {"board": {"x": {"n": 1}, "e": {}, "f": True}, "hand": [1, 2]}
    loaded.seq = 2  # the next seq reuses what did not change
    d = share(loaded, {"board": {"x": {"n": 1}, "e": {}, "f": True}, "hand": [2]})
    assert d["board"] is a["board"]
