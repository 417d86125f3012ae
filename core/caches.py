"""Process-local caches: every one is a bounded ``BoundedCache``, and every one is in the
registry (:func:`registered`), so that the tests clear them all at once (:func:`clear_all`)."""

import threading
import weakref
from collections import OrderedDict

_registry: "weakref.WeakValueDictionary[str, BoundedCache]" = weakref.WeakValueDictionary()
_registry_lock = threading.Lock()


class BoundedCache:
    """Values by key, the oldest dropped past ``size``; thread-safe; registered by ``name``."""

    def __init__(self, size: int, name: str | None = None) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        with _registry_lock:
            self.name = name or f"cache-{len(_registry)}-{id(self):x}"
            _registry[self.name] = self

    def get(self, key):
        with self._lock:
            return self._items.get(key)

    def pop(self, key):
        """The value for ``key``, no longer kept (``None`` if none)."""
        with self._lock:
            return self._items.pop(key, None)

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


def registered() -> dict[str, BoundedCache]:
    """Every cache alive in this process, by name."""
    with _registry_lock:
        return dict(_registry)


def clear_all() -> None:
    for cache in registered().values():
        cache.clear()
