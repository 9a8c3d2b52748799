"""The layers of design.md, checked on the source: rules/ imports nothing of the engine or the
service, events/ knows no HTTP and no particular game, clients/ speaks HTTP only, and no two
modules import each other (directly or round a loop) at run time."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "events", "service", "clients")
# layer -> the project packages it may import
ALLOWED = {"rules": {"rules"}, "events": {"events", "rules"}, "service": {"service", "events", "rules"},
           "clients": {"clients"}}
# module -> what it may import beyond its layer, and why
EXCEPTIONS = {
    # `cartel verify --offline` runs the service's verification with the package's own rules: a
    # check that must not ask the server cannot go through HTTP
    "clients.offline": {"events.history", "rules"},
}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def runtime_imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Project modules imported when `path` runs (imports under `if TYPE_CHECKING:` left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = [ast.Pass()]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & set(known)
            out |= submodules or {node.module}
    return {name for name in out if name.split(".")[0] in PACKAGES}


MODULES = modules()
GRAPH = {name: runtime_imports(path, MODULES) & set(MODULES) - {name} for name, path in MODULES.items()}


def test_each_layer_imports_only_what_it_may():
    for name, imported in GRAPH.items():
        layer = name.split(".")[0]
        wrong = sorted(i for i in imported
                       if i.split(".")[0] not in ALLOWED[layer] and i not in EXCEPTIONS.get(name, set()))
        assert not wrong, f"{name} ({layer}/) imports {wrong}"


def test_no_import_cycles():
    # Tarjan's strongly connected components: any component of two or more modules is a cycle
    index, low, on_stack, stack, cycles = {}, {}, set(), [], []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert cycles == []
