"""The token bucket behind the game socket's frame limit (core.token_bucket)."""

import doctest

import pytest

from core import token_bucket as ratelimit
from core.token_bucket import TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_full_bucket_lets_a_burst_through_then_refuses():
    bucket = TokenBucket(rate=10, burst=20, clock=Clock())
    assert [bucket.take() for _ in range(21)] == [True] * 20 + [False]


def test_it_refills_at_the_rate_up_to_the_burst():
    clock = Clock()
    bucket = TokenBucket(rate=10, burst=20, clock=clock)
    for _ in range(20):
        bucket.take()
    clock.now += 0.25  # 2.5 tokens
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    clock.now += 3600
    assert sum(bucket.take() for _ in range(30)) == 20


def test_a_steady_client_at_the_rate_is_never_refused():
    clock = Clock()
    bucket = TokenBucket(rate=8, burst=1, clock=clock)
    for _ in range(1000):
        assert bucket.take()
        clock.now += 0.125


def test_refusals_do_not_cost_tokens():
    clock = Clock()
    bucket = TokenBucket(rate=1, burst=1, clock=clock)
    bucket.take()
    for _ in range(50):
        assert not bucket.take()
    clock.now += 1
    assert bucket.take()


@pytest.mark.parametrize(("rate", "burst"), [(0, 5), (-1, 5), (1, 0)])
def test_it_rejects_a_bucket_that_could_never_pass(rate, burst):
    with pytest.raises(ValueError):
        TokenBucket(rate=rate, burst=burst)


def test_the_docstring_example():
    assert doctest.testmod(ratelimit).failed == 0
