"""`--bench-repeat N`: run each collected Tavern test N times in this one pytest process, as `flowspec run --repeat N`
runs each scenario N times in one flowspec process (bench/tavern.sh). The test files are read and parsed once, at
collection; each repetition is a fresh item (its own saved variables) built from a copy of the parsed test.
pytest-repeat's `--count` does not apply to Tavern's YAML items (it parametrizes Python test functions only)."""

import copy

from tavern._core.pytest.item import YamlItem


def pytest_addoption(parser):
    parser.addoption("--bench-repeat", type=int, default=1, help="run every Tavern test N times (bench/tavern.sh)")


def pytest_collection_modifyitems(session, config, items):
    n = config.getoption("--bench-repeat")
    if n <= 1:
        return
    repeated = []
    for item in items:
        if not isinstance(item, YamlItem):
            repeated.append(item)
            continue
        for run in range(1, n + 1):
            clone = YamlItem.yamlitem_from_parent(f"{item.name} (run {run} of {n})", item.parent,
                                                  copy.deepcopy(item.spec), item.path)
            for marker in item.own_markers:
                clone.add_marker(marker)
            clone.add_marker("bench_repeat")
            clone.initialise_fixture_attrs()  # as tavern's YamlFile.collect does for each item it makes
            repeated.append(clone)
    items[:] = repeated
