#!/usr/bin/env python3
"""Counts the non-test lines of the library that name a particular protocol outside
its homes, prints them, and exits 1 when there are more than the allowance (10).

A protocol's homes are its folder `src/protocol/<name>/`, its reference glue (the
`src/reference/<glue>.rs` or `src/reference/<glue>/` its line in `src/registry.rs`
names: one host may serve several profiles), the line in `src/protocol/mod.rs` or
`src/reference/mod.rs` that declares that folder (`pub mod openwop;`), and
`src/registry.rs`, the one list that names every protocol; the model-wire folders
`src/wire`, `src/witness` and `src/judge` describe wires, not protocols, and are not
counted.

A line names a protocol when an identifier, a string or a path on it does: words are
split as Rust spells them (snake_case, CamelCase, SCREAMING_CASE, kebab-case, prose), so
`openwop::`, `Openwop`, `AguiFault`, `"openai-responses"`, `OPENWOP_BASE_URL`, `AG-UI`,
`OpenAI` and `AgentRuntime` all count; so do the few identifiers of the reference crate
that belong to one protocol without spelling it (ALIASES). Comments are not code and are
skipped; so are `#[cfg(test)]` items, files compiled for tests only (`#[cfg(test)] mod
x;`) and `*_tests.rs`.

  python3 scripts/protocol-names.py           # the lines and their count
  python3 scripts/protocol-names.py --quiet   # the count, and the lines only when over
  python3 scripts/protocol-names.py --max N   # another allowance
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SRC = os.path.join(ROOT, "src")
ALLOWANCE = 10

# Each protocol's name as words (an identifier or string split into lower-case words).
PROTOCOLS = {
    "openwop": [["openwop"], ["open", "wop"]],
    "agui": [["agui"], ["ag", "ui"]],
    "openai": [["openai"], ["open", "ai"]],
    "openai-responses": [["openai", "responses"], ["open", "ai", "responses"]],
    "anthropic": [["anthropic"]],
    "agentruntime": [["agentruntime"], ["agent", "runtime"]],
    "acp": [["acp"]],
}
# Identifiers of one protocol that do not spell its name.
ALIASES = {
    "ReferenceConfig": "openwop",
    "Dialect": "openwop",
    "DialectArg": "openwop",
    "RuntimeFault": "agentruntime",
    "RuntimeConfig": "agentruntime",
    "RuntimeShape": "agentruntime",
}
MODEL_WIRE_FOLDERS = ("wire", "witness", "judge")

WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING = re.compile(r'r#*"|b?"')


def words(text):
    return [w.lower() for w in WORD.findall(text)]


def named_in(text):
    """The protocols a piece of code or string text names."""
    found = set()
    for token in TOKEN.findall(text):
        if token in ALIASES:
            found.add(ALIASES[token])
    ws = words(text)
    for name, spellings in PROTOCOLS.items():
        for spelling in spellings:
            n = len(spelling)
            if any(ws[i : i + n] == spelling for i in range(len(ws) - n + 1)):
                found.add(name)
    # `openai-responses` also says `openai`; count the more precise name only.
    if "openai-responses" in found:
        found.discard("openai")
    return found


def strip_comments(text):
    """The text with comments blanked (strings and char literals kept, lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        m = STRING.match(text, i) if c in 'rb"' else None
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            start = m.end()
            hashes = m.group(0).count("#")
            if m.group(0).startswith("r"):
                end = text.find('"' + "#" * hashes, start)
                end = n if end < 0 else end + 1 + hashes
            else:
                j = start
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                end = min(j + 1, n)
            out.append(text[i:end])
            i = end
            continue
        if c == "'":
            # A char literal ('x', '\n'), not a lifetime ('a).
            m = re.match(r"'(\\.|[^\\'])'", text[i:])
            if m:
                out.append(m.group(0))
                i += len(m.group(0))
                continue
        out.append(c)
        i += 1
    return "".join(out)


def blank_cfg_test(text):
    """The text with every `#[cfg(test)]` item blanked (lines kept)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if re.match(r"\s*#\[cfg\(test\)\]", lines[i]):
            depth, seen, j = 0, False, i
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                seen = seen or "{" in lines[j]
                ends = (seen and depth <= 0) or (not seen and lines[j].rstrip().endswith(";"))
                lines[j] = ""
                if ends:
                    break
                j += 1
            i = j + 1
            continue
        i += 1
    return "\n".join(lines)


def test_only_files():
    """Files compiled for tests only: `#[cfg(test)] mod x;` names them."""
    found = set()
    for dirpath, _, files in os.walk(SRC):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(dirpath, f)
            here = dirpath if f in ("mod.rs", "lib.rs", "main.rs") else os.path.join(dirpath, f[:-3])
            text = open(path, encoding="utf-8").read()
            declared = re.finditer(
                r"#\[cfg\(test\)\]\s*(?:#\[path\s*=\s*\"([^\"]+)\"\]\s*)?"
                r"(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;",
                text,
            )
            for m in declared:
                if m.group(1):
                    # `#[path]` is relative to the directory of the declaring file.
                    found.add(os.path.normpath(os.path.join(dirpath, m.group(1))))
                    continue
                for candidate in (os.path.join(here, m.group(2) + ".rs"), os.path.join(here, m.group(2), "mod.rs")):
                    found.add(os.path.normpath(candidate))
    return found


def registry_lines():
    """(protocol folder, glue module) of each line of src/registry.rs."""
    path = os.path.join(SRC, "registry.rs")
    if not os.path.exists(path):
        return []
    text = open(path, encoding="utf-8").read()
    return re.findall(r"protocol::(\w+)::\w+\s*,\s*&reference::(\w+)::", text)


def folder_name(folder):
    """The protocol a folder under src/protocol/ is (`openai_responses`: openai-responses)."""
    return folder.replace("_", "-")


def glue_homes():
    """Each glue module under src/reference/, and the protocols it is the glue of."""
    homes = {}
    for folder, glue in registry_lines():
        homes.setdefault(glue, set()).add(folder_name(folder))
    return homes


GLUE = glue_homes()


def homes_of(rel):
    """The protocols whose home `rel` (a path under src/) is; `None`: every protocol's."""
    parts = rel.split("/")
    if parts[0] in MODEL_WIRE_FOLDERS or rel == "registry.rs":
        return None
    stem = lambda s: s[:-3] if s.endswith(".rs") else s
    if parts[0] == "protocol" and len(parts) > 2:
        return {folder_name(parts[1])}
    if parts[0] == "reference" and len(parts) > 2 or (
        parts[0] == "reference" and len(parts) == 2 and parts[1] != "mod.rs"
    ):
        return GLUE.get(stem(parts[1]), set())
    return set()


def declares_a_home(rel, line):
    """`pub mod <folder>;` in src/protocol/mod.rs or src/reference/mod.rs: the line that
    declares a protocol's folder or its glue to the compiler, part of that home."""
    m = re.match(r"\s*(pub\s+)?mod\s+(\w+)\s*;", line)
    if not m:
        return set()
    if rel == "protocol/mod.rs":
        return {folder_name(m.group(2))}
    if rel == "reference/mod.rs":
        return GLUE.get(m.group(2), set())
    return set()


def offending_lines():
    skipped = test_only_files()
    for dirpath, _, files in sorted(os.walk(SRC)):
        for f in sorted(files):
            path = os.path.normpath(os.path.join(dirpath, f))
            if not f.endswith(".rs") or f.endswith("_tests.rs") or path in skipped:
                continue
            rel = os.path.relpath(path, SRC).replace(os.sep, "/")
            homes = homes_of(rel)
            if homes is None:
                continue
            raw = open(path, encoding="utf-8").read()
            code = blank_cfg_test(strip_comments(raw)).split("\n")
            shown = raw.split("\n")
            for number, line in enumerate(code, 1):
                names = named_in(line) - homes - declares_a_home(rel, line)
                if names:
                    yield rel, number, sorted(names), shown[number - 1].strip()


def main():
    allowance = ALLOWANCE
    if "--max" in sys.argv:
        allowance = int(sys.argv[sys.argv.index("--max") + 1])
    lines = list(offending_lines())
    quiet = "--quiet" in sys.argv and len(lines) <= allowance
    for rel, number, names, text in [] if quiet else lines:
        print(f"src/{rel}:{number}: [{','.join(names)}] {text}")
    files = len({rel for rel, *_ in lines})
    print(f"{len(lines)} line(s) in {files} file(s) name a protocol outside its homes (allowed: {allowance})")
    sys.exit(1 if len(lines) > allowance else 0)


main()
