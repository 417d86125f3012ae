"""A token bucket of at most ``burst`` tokens gaining ``rate`` a second: how many frames one
socket may send (docs/protocol.md), one token each."""

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
