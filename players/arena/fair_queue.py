"""A queue that takes turns between its owners: each get() gives the oldest item of
the owner served longest ago (one never served first), so that one student handing in
many versions at once delays each other student's by at most the check under way."""

from __future__ import annotations

import collections
import itertools
import threading
from typing import Generic, TypeVar

Item = TypeVar('Item')


class FairQueue(Generic[Item]):
    """Items queued by owner, given out one owner at a time in turn."""

    def __init__(self) -> None:
        self._waiting: dict[str, collections.deque[Item]] = {}
        self._served: dict[str, int] = {}
        """When each owner was last given an item, counted in items given out."""
        self._given = itertools.count()
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
            self._ready.wait_for(lambda: bool(self._waiting) or self._closed)
            if self._closed:
                return None
            owner = min(self._waiting, key=lambda name: self._served.get(name, -1))
            items = self._waiting[owner]
            item = items.popleft()
            if not items:
                del self._waiting[owner]
            self._served[owner] = next(self._given)
            return item

    def close(self) -> None:
        """Give out nothing more: get() returns None."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
