"""Someone else's source runs as Python runs a file of its own."""

from games import sources


def test_a_file_is_compiled_without_this_projects_future_imports():
    """Its annotations are evaluated as it loads, as without this project (which
    imports annotations from __future__ in its own modules)."""
    module = sources.run_source('def f(x: int): pass\nKIND = f.__annotations__["x"]\n',
                                'bot.py', 'annotated')
    assert module.KIND is int
