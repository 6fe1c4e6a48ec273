"""The package's modules import one another only downward, and never in a cycle (imports under
``TYPE_CHECKING`` included): each layer below may be read and changed without the ones above."""

from __future__ import annotations

import ast
from pathlib import Path

import pix_sandbox

PACKAGE = Path(pix_sandbox.__file__).parent

# Top to bottom: a module imports its own layer's and the layers below.
LAYERS = [
    {"__init__", "pytest_plugin"},  # what a user imports, and the pytest plugin
    {"sandbox"},  # start() and connect(): a server and its controls
    {"control", "control_base", "webhooks"},  # the control helpers
    {"process", "cli"},  # running the CLI
    {"transport", "schemas", "errors", "_guard"},  # HTTP, the generated types, the errors
]


def imports() -> dict[str, set[str]]:
    """Each module's imports of the package's own modules, wherever they stand in it."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = node.module or ""
            if node.level == 1:
                names.update([module] if module else [a.name for a in node.names])
            elif module.startswith("pix_sandbox."):
                names.add(module.split(".")[1])
        found[path.stem] = {n.split(".")[0] for n in names}
    return found


def layer(module: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if module in names)


def test_every_module_is_in_a_layer() -> None:
    assert sorted(imports()) == sorted(set().union(*LAYERS))


def test_imports_go_only_downward() -> None:
    upward = [
        f"{module} -> {name}"
        for module, names in imports().items()
        for name in sorted(names)
        if layer(name) < layer(module)
    ]
    assert upward == []


def test_no_import_cycle() -> None:
    graph = imports()
    cycles: list[str] = []

    def visit(module: str, path: list[str]) -> None:
        for name in sorted(graph[module]):
            if name in path:
                cycles.append(" -> ".join([*path[path.index(name) :], name]))
            elif name != module:
                visit(name, [*path, name])

    for module in graph:
        visit(module, [module])
    assert cycles == []
