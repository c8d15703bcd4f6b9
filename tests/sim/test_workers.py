"""The simulator's process pool (bot.sim.workers): answers in task order, errors reach the
caller."""

from __future__ import annotations

import os

import pytest

from bot.sim.workers import IN_FLIGHT, WorkerError, Workers


def _scaled(job: int, task: int) -> tuple[int, int]:
    # Module level: pickled by name. Later tasks finish first, to shuffle the answers' arrival.
    total = 0
    for i in range((40 - task % 40) * 2_000):
        total += i
    return task * job, os.getpid()


def _failing(job: int, task: int) -> int:
    if task == 7:
        raise ValueError(f"bad task {task}")
    return task


def _dying(job: int, task: int) -> int:
    if task == 3:
        os._exit(1)  # as if killed: no answer at all
    return task


def test_answers_come_in_task_order_from_every_worker() -> None:
    with Workers(2, _scaled, 3) as workers:
        answers = list(workers.map(list(range(60))))
        again = list(workers.map([5, 1]))  # the same workers serve the next batch
    assert [value for value, _ in answers] == [3 * task for task in range(60)]
    assert len({pid for _, pid in answers}) == 2
    assert os.getpid() not in {pid for _, pid in answers}
    assert [value for value, _ in again] == [15, 3]
    assert IN_FLIGHT >= 1


def test_an_error_in_a_worker_is_raised_in_the_caller() -> None:
    with pytest.raises(ValueError, match="bad task 7"), Workers(2, _failing, 0) as workers:
        list(workers.map(list(range(20))))


def test_a_worker_that_dies_is_an_error() -> None:
    with pytest.raises(WorkerError, match="ended unexpectedly"), Workers(2, _dying, 0) as workers:
        list(workers.map(list(range(10))))


def test_spawned_workers_give_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    # macOS and Windows start workers with spawn: the job is pickled to each, nothing inherited.
    import multiprocessing

    from bot.engine import make_rules
    from bot.sim import workers
    from bot.sim.runner import SimConfig, run

    configs = [SimConfig(make_rules("kap-shap"), ("random", "greedy"))]
    forked = run(configs, 24, seed=2, workers=2)
    monkeypatch.setattr(workers, "context", lambda: multiprocessing.get_context("spawn"))
    spawned = run(configs, 24, seed=2, workers=2)
    assert spawned[0].records == forked[0].records
    assert spawned[0].tally == forked[0].tally
