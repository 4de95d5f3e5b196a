"""A queue that takes turns between its owners: each get() gives the oldest item of
the next owner in turn, so that one student handing in many versions at once delays
each other student's by at most one check."""

from __future__ import annotations

import collections
import threading
from typing import Generic, TypeVar

Item = TypeVar('Item')


class FairQueue(Generic[Item]):
    """Items queued by owner, given out one owner at a time in turn."""

    def __init__(self) -> None:
        self._waiting: collections.OrderedDict[str, collections.deque[Item]] = \
            collections.OrderedDict()
        self._ready = threading.Condition()
        self._closed = False

    def put(self, owner: str, item: Item) -> None:
        """Queue an item of owner's, after the owner's others."""
        with self._ready:
            self._waiting.setdefault(owner, collections.deque()).append(item)
            self._ready.notify()

    def get(self) -> Item | None:
        """Return the oldest item of the owner whose turn it is, waiting for one; None
        once the queue is closed."""
        with self._ready:
            self._ready.wait_for(lambda: self._waiting or self._closed)
            if self._closed:
                return None
            owner, items = next(iter(self._waiting.items()))
            item = items.popleft()
            del self._waiting[owner]
            if items:  # the owner's next item waits for the others' turns
                self._waiting[owner] = items
            return item

    def close(self) -> None:
        """Give out nothing more: get() returns None."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
