"""The sockets' database thread pool knows how long its oldest queued call has waited."""

import threading
import time

from games import db_threads


def test_the_pool_forgets_calls_taken_or_cancelled():
    pool = db_threads.Pool(max_workers=1)
    release = threading.Event()
    try:
        busy = pool.submit(release.wait)
        waiting = pool.submit(lambda: "ran")
        cancelled = pool.submit(lambda: "never")
        time.sleep(0.05)
        assert pool.oldest_wait() >= 0.05
        assert cancelled.cancel()
        release.set()
        assert busy.result(timeout=10) is True
        assert waiting.result(timeout=10) == "ran"
        assert pool.oldest_wait() == 0
    finally:
        release.set()
        pool.shutdown(wait=True)
