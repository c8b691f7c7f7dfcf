#!/usr/bin/env python3
"""The file-level import graph of a Rust crate and its largest cycle.

Usage: benches/import-cycles.py [SRC_DIR] [--members]

SRC_DIR defaults to crates/engine/src. Each .rs file is a node; file A depends on file B when
A names a path into B: `use crate::…`, `use super::…`, a `use` of a child module, or an inline
path such as `crate::builtins::map::key_of(…)`. A path resolves to the deepest file it reaches
(`crate::a::b::f` is `a/b.rs` or `a/b/mod.rs`, else `a.rs`). The report gives the number of
files, the size of the largest strongly connected component (the files that all reach each
other), and with --members the files in it. Issue 28 tracks this number: a layered engine has
a small cycle, with `heap/` outside it.
"""

import os
import re
import sys


def module_path(src, path):
    """The module path of a file: src/a/b.rs and src/a/b/mod.rs are ['a', 'b']."""
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def use_trees(text):
    """Every path a `use` declaration imports, with braces expanded."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        tree = re.sub(r"\s+as\s+\w+", "", m.group(1))
        paths.extend(expand(re.sub(r"\s+", "", tree)))
    return paths


def expand(tree):
    """`a::{b,c::{d}}` → ['a::b', 'a::c::d']."""
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, inner = tree[:brace], tree[brace + 1 : tree.rfind("}")]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p for part in parts if part for p in expand(prefix + part)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = args[0] if args else "crates/engine/src"
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                files[tuple(module_path(src, path))] = os.path.relpath(path, src)

    def resolve(segments):
        for n in range(len(segments), 0, -1):
            if tuple(segments[:n]) in files:
                return files[tuple(segments[:n])]
        return None

    edges = {f: set() for f in files.values()}
    for module, rel in files.items():
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            text = strip_comments(f.read())
        # `super` is the parent module, whether the file is `a/b.rs` or `a/b/mod.rs`.
        parent = list(module[:-1])
        targets = []
        for path in use_trees(text):
            segs = [s for s in path.split("::") if s]
            if not segs:
                continue
            if segs[0] == "crate":
                targets.append(segs[1:])
            elif segs[0] == "super":
                base = parent
                while segs and segs[0] == "super":
                    segs = segs[1:]
                    if segs and segs[0] == "super":
                        base = base[:-1]
                targets.append(base + segs)
            elif segs[0] == "self":
                targets.append(list(module) + segs[1:])
            elif tuple(list(module) + segs[:1]) in files:
                targets.append(list(module) + segs)
        for m in re.finditer(r"(?<![\w:])crate((?:::\w+)+)", text):
            targets.append(m.group(1).split("::")[1:])
        for m in re.finditer(r"(?<![\w:])super((?:::\w+)+)", text):
            targets.append(parent + [s for s in m.group(1).split("::")[1:] if s != "super"])
        for t in targets:
            target = resolve(t)
            if target and target != rel:
                edges[rel].add(target)

    # Tarjan's strongly connected components, iteratively.
    index, low, on_stack, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                scc = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    scc.append(w)
                    if w == node:
                        break
                sccs.append(sorted(scc))
    largest = max(sccs, key=len)
    heap_inside = sorted(f for f in largest if f.startswith("heap" + os.sep))
    print(f"{len(files)} files, {sum(len(e) for e in edges.values())} file-level edges")
    print(f"largest cycle: {len(largest)} of {len(files)} files")
    print(f"heap/ files in it: {len(heap_inside)}")
    if "--members" in sys.argv:
        for f in largest:
            print(f"  {f}")


if __name__ == "__main__":
    main()
