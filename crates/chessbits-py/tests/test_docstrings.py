"""The examples in the docstrings (the module's documentation) run and give what they show."""

import doctest

import chessbits


def test_docstring_examples():
    objects = [chessbits] + [getattr(chessbits, name) for name in dir(chessbits) if not name.startswith("_")]
    for cls in (chessbits.Position, chessbits.Index):
        objects += [getattr(cls, name) for name in dir(cls) if not name.startswith("_")]
    finder, runner = doctest.DocTestFinder(recurse=False), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for obj in objects:
        for test in finder.find(obj, getattr(obj, "__name__", "x"), globs={}):
            runner.run(test)
            examples += len(test.examples)
    assert runner.failures == 0
    assert examples >= 30


def test_everything_documented():
    for name in dir(chessbits):
        if not name.startswith("_"):
            assert getattr(chessbits, name).__doc__, name
    for cls in (chessbits.Position, chessbits.Index):
        for name in dir(cls):
            if not name.startswith("_"):
                assert getattr(cls, name).__doc__, (cls, name)
