#!/usr/bin/env python3
"""Top-level module dependencies of the mmconform library and the cycles among them.

The module tree is walked from src/lib.rs the way rustc finds files (`mod x;`, with
`#[path]`), leaving out every item under `#[cfg(test)]` (test modules, test-only
files such as `*_tests.rs`, the test fixtures): tests may use anything. Only code is
read: comments (`//`, `///`, `//!`, nested `/* */`), string, raw-string and char
literals are blanked first, so a doc link such as [`crate::http`] is not a dependency.

A top-level module (src/<name>.rs or src/<name>/) depends on another when its code names
`crate::<other>`, `crate::{<other>, ...}`, or a `super::` path that climbs to the crate
root and then names <other>. Prints each cycle and exits 1 when there is one; `-v` also
prints the graph, `--why A B` the lines where A names B.
"""
import os
import re
import sys

SRC = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "src"))


def blank_non_code(text):
    """The text with comments and literals replaced by spaces (newlines kept, so
    offsets and line numbers stay those of the file)."""
    out = list(text)
    n = len(text)
    i = 0

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and not _ident_before(text, i):
            close = '"' + m.group(1)
            end = text.find(close, m.end())
            end = n if end < 0 else end + len(close)
            blank(i, end)
            i = end
        elif c == '"' or (c == "b" and nxt == '"' and not _ident_before(text, i)):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{1F600}', '"'); otherwise a lifetime or label.
            m = re.compile(r"'(\\(u\{[0-9a-fA-F]+\}|x..|.)|[^\\'])'").match(text, i)
            if m:
                blank(i, m.end())
                i = m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def _ident_before(text, i):
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def matching_brace(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


ATTR = re.compile(r"#!?\[")


def attribute_end(code, start):
    """The end of the attribute `#[...]` starting at `start` (brackets balanced)."""
    depth = 0
    for j in range(code.index("[", start), len(code)):
        if code[j] == "[":
            depth += 1
        elif code[j] == "]":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def item_end(code, start):
    """The end of the item starting at `start`: its `;`, or its block's closing brace."""
    for j in range(start, len(code)):
        if code[j] == ";":
            return j + 1
        if code[j] == "{":
            return matching_brace(code, j)
    return len(code)


def test_only_spans(code):
    """Spans of the items under `#[cfg(test)]` (the attribute, any attributes after it,
    and the item), and the names of the `mod x;` among them."""
    spans, mods = [], set()
    for m in re.finditer(r"#\[\s*cfg\s*\(\s*test\s*\)\s*\]", code):
        j = m.end()
        while True:
            k = len(code[j:]) - len(code[j:].lstrip())
            if ATTR.match(code, j + k):
                j = attribute_end(code, j + k)
            else:
                j += k
                break
        end = item_end(code, j)
        decl = re.match(r"(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code[j:end])
        if decl:
            mods.add(decl.group(3))
        spans.append((m.start(), end))
    return spans, mods


def inside(pos, spans):
    return any(a <= pos < b for a, b in spans)


def child_files(path, code, test_spans):
    """(name, file) of the `mod name;` declarations in `path` that are compiled
    outside tests."""
    here = os.path.dirname(path)
    base = os.path.basename(path)
    own_dir = here if base in ("lib.rs", "main.rs", "mod.rs") else os.path.join(here, base[:-3])
    found = []
    decl = re.compile(r"((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;")
    for m in decl.finditer(code):
        if inside(m.start(2), test_spans):
            continue
        name = m.group(2)
        explicit = re.search(r'#\[\s*path\s*=', m.group(1))
        if explicit:
            # The literal was blanked: read it from the original text.
            literal = re.search(r'path\s*=\s*"([^"]+)"', ORIGINAL[path][m.start(1):m.end(1)])
            found.append((name, os.path.normpath(os.path.join(here, literal.group(1)))))
            continue
        for candidate in (os.path.join(own_dir, name + ".rs"), os.path.join(own_dir, name, "mod.rs")):
            if os.path.exists(candidate):
                found.append((name, candidate))
                break
    return found


ORIGINAL = {}


def read(path):
    text = open(path, encoding="utf-8").read()
    ORIGINAL[path] = text
    return blank_non_code(text)


def inline_modules(code):
    """Spans of the inline `mod x { ... }` blocks (each climbs one `super::`)."""
    return [(m.start(), matching_brace(code, m.end() - 1))
            for m in re.finditer(r"\bmod\s+\w+\s*\{", code)]


def top_level_names(code, depth_of_file, test_spans):
    """(name, offset) of every top-level module this file's code names."""
    inline = inline_modules(code)
    names = []
    path = re.compile(r"\b(crate|(?:super\s*::\s*)+)\s*::\s*(\{|\w+)")
    for m in path.finditer(code):
        if inside(m.start(), test_spans):
            continue
        head = m.group(1)
        if head != "crate":
            depth = depth_of_file + sum(1 for a, b in inline if a < m.start() < b)
            if head.count("super") != depth:
                continue
        if m.group(2) == "{":
            group = code[m.end(2):matching_brace(code, m.end(2) - 1) - 1]
            names += [(n, m.start()) for n in top_level_of_group(group)]
        else:
            names.append((m.group(2), m.start()))
    return names


def top_level_of_group(group):
    """The first segment of each path in a `{a::b, c, d::{e, f}}` group."""
    level, parts, current = 0, [], ""
    for ch in group:
        if ch == "{":
            level += 1
        elif ch == "}":
            level -= 1
        elif ch == "," and level == 0:
            parts.append(current)
            current = ""
            continue
        if level == 0:
            current += ch
    parts.append(current)
    return [re.match(r"\s*(\w+)", p).group(1) for p in parts if re.match(r"\s*(\w+)", p)]


def walk(path, depth, files):
    """Every file of a module, with its depth below the crate root."""
    code = read(path)
    files.append((path, depth, code))
    spans, _ = test_only_spans(code)
    for _, child in child_files(path, code, spans):
        walk(child, depth + 1, files)


def graph():
    lib = os.path.join(SRC, "lib.rs")
    code = read(lib)
    spans, _ = test_only_spans(code)
    modules = dict(child_files(lib, code, spans))
    edges = {m: set() for m in modules}
    why = {}
    for m, root in modules.items():
        files = []
        walk(root, 1, files)
        for path, depth, code in files:
            spans, _ = test_only_spans(code)
            for other, offset in top_level_names(code, depth, spans):
                if other in edges and other != m:
                    edges[m].add(other)
                    line = code.count("\n", 0, offset) + 1
                    text = ORIGINAL[path].splitlines()[line - 1].strip()
                    why.setdefault((m, other), []).append(
                        f"{os.path.relpath(path, SRC)}:{line}: {text}")
    return edges, why


def cycles(edges):
    found = set()

    def visit(node, path):
        for nxt in edges[node]:
            if nxt in path:
                cyc = path[path.index(nxt):]
                i = cyc.index(min(cyc))
                found.add(tuple(cyc[i:] + cyc[:i]))
            elif len(path) < 8:
                visit(nxt, path + [nxt])

    for m in edges:
        visit(m, [m])
    return sorted(found, key=lambda c: (len(c), c))


def main(argv):
    edges, why = graph()
    if "--why" in argv:
        a, b = argv[argv.index("--why") + 1:argv.index("--why") + 3]
        print("\n".join(why.get((a, b), [])))
        return 0
    if "-v" in argv:
        for m in sorted(edges):
            print(f"{m} -> {', '.join(sorted(edges[m]))}")
    found = cycles(edges)
    for c in found:
        print(" -> ".join(c + (c[0],)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
