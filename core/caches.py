"""A small bounded cache shared by threads: what the socket and page code renders or decodes
once per key (boards, grids, controls, views, frames), the oldest entry dropped past its size."""

import threading
from collections import OrderedDict


class BoundedCache:
    """Values by key, the oldest dropped past ``size``. Pages and replays render in threads,
    sockets on the event loop: hence the lock."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            return self._items.get(key)

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            if len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
