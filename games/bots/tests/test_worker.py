"""A searching bot thinks in a worker process: the caller's process keeps its CPU (and GIL)."""

import random
import time

from games.bots import get_bot, worker
from games.bots.strong import StrongBot
from games.bots.tests.positions import random_views


def _searched_views(count: int):
    """Positions where the expert searches (it spends over 5 ms of CPU on them)."""
    expert = get_bot("expert")
    found = []
    for _game, _seat, view in random_views(seed=17, count=400):
        started = time.process_time()
        expert.choose(view, random.Random(0))
        if time.process_time() - started > 0.005:
            found.append(view)
            if len(found) == count:
                break
    return found


def test_an_expert_decision_costs_the_calling_process_almost_no_cpu():
    views = _searched_views(12)
    assert len(views) == 12
    expert = get_bot("expert")
    started = time.process_time()
    inline = [expert.choose(view, random.Random(3)) for view in views]
    inline_cpu = time.process_time() - started
    worker.choose("expert", views[0], 3)  # the worker's start is not what is measured
    started = time.process_time()
    remote = [worker.choose("expert", view, 3) for view in views]
    remote_cpu = time.process_time() - started
    assert remote == inline  # the same step: the seed travels with the view
    assert remote_cpu < inline_cpu / 4, (remote_cpu, inline_cpu)
    worker.discard()


def test_other_levels_decide_in_the_callers_thread(monkeypatch):
    (view,) = _searched_views(1)

    def no_worker():
        raise AssertionError("the medium bot went to the worker")

    monkeypatch.setattr(worker, "_worker", no_worker)
    assert worker.choose("medium", view, 5) == get_bot("medium").choose(view, random.Random(5))


def test_a_broken_worker_falls_back_to_the_experts_model_without_search(monkeypatch):
    model, strong = StrongBot(plan=True), StrongBot()
    views = [
        view
        for _game, _seat, view in random_views(seed=5, count=300)
        if model.choose(view, random.Random(1)) != strong.choose(view, random.Random(1))
    ]
    assert views  # positions where the expert's model and the strong bot differ

    def broken():
        raise OSError("no process")

    monkeypatch.setattr(worker, "_worker", broken)
    for view in views:
        assert worker.choose("expert", view, 1) == model.choose(view, random.Random(1))
