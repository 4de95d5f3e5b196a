def first(iterable, default=None):
    """The first item of iterable, or default."""
    return next(iter(iterable), default)
