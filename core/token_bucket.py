"""A token bucket: how many frames one game or lobby socket may send (docs/protocol.md).

The bucket holds at most ``burst`` tokens and gains ``rate`` tokens a second; each frame takes
one. A frame finding the bucket empty is refused. No Django here: the consumer owns one bucket
per connection.

>>> clock = [0.0]
>>> bucket = TokenBucket(rate=1, burst=2, clock=lambda: clock[0])
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> clock[0] = 1.0
>>> bucket.take(), bucket.take()
(True, False)
"""

import time
from collections.abc import Callable


class TokenBucket:
    def __init__(
        self, *, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def take(self) -> bool:
        """Take one token: ``True`` if there was one (the frame may go on)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
