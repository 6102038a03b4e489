#!/usr/bin/env python3
"""The docs check (run by `make test` after the Swift tests; alone: `make check-docs`).

Reads README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md and reports, one sentence per problem:

1. every relative link or image (`[text](path#anchor)`, `[id]: path`) whose file does not exist, or whose
   `#anchor` names no heading of the target Markdown file (GitHub's heading slugs);
2. every `swingmaster` command, subcommand and `--flag` the docs name that the built binary does not have
   (not checked in CHANGELOG.md, which records old names on purpose). The binary is asked once for its
   whole command tree (`swingmaster --experimental-dump-help`, the machine-readable form of
   `swingmaster help`), so a renamed or removed flag shows up here without anyone listing it.

What counts as a mention, in code spans and code blocks only (prose is not parsed):
- `swingmaster CMD [SUB] … --flag …` (also `.build/release/swingmaster …`): CMD must be a command, SUB a
  subcommand when CMD has them (alternatives as `list|show` are each checked), and every `--flag` up to the
  end of the span, or of the shell command in a code block (`|`, `;`, `&&`, a comment), must be an option
  of that command;
- a span that starts with a command name and carries a flag (`analyze --detector MODEL`): the same;
- a span that starts with a flag (`--pose-fps`): the flag must exist in some command. A flag of another
  program is written with that program's name in the span (`swift test --filter …`), which this check skips.
Placeholders (`swingmaster <command>`, `swingmaster COMMAND`) are skipped.

Usage: tools/check_docs.py [--binary .build/debug/swingmaster] [--links-only] [FILE.md …]
Exit status 0 when nothing is wrong, 1 otherwise. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILTIN_FLAGS = {"help", "version", "experimental-dump-help", "generate-completion-script"}
FLAG_RE = re.compile(r"(?<![\w-])--([A-Za-z0-9][A-Za-z0-9-]*)")
LINK_RE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
SPAN_RE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
SHELL_BREAKS = {"|", "||", ";", "&&", "&", "(", ")", "$(", "`"}


@dataclass
class Command:
    """One node of the binary's command tree."""
    path: str
    options: set[str] = field(default_factory=set)
    subcommands: dict[str, "Command"] = field(default_factory=dict)

    def all_options(self) -> set[str]:
        names = set(self.options)
        for sub in self.subcommands.values():
            names |= sub.all_options()
        return names


def load_tree(binary: Path) -> Command:
    """The binary's commands and options, from ArgumentParser's machine-readable help."""
    out = subprocess.run([str(binary), "--experimental-dump-help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"check_docs: `{binary} --experimental-dump-help` failed with status {out.returncode}: "
                         f"{out.stderr.strip() or 'no message'}")

    def build(info: dict, prefix: str) -> Command:
        name = info["commandName"]
        node = Command(path=(prefix + " " + name).strip())
        for arg in info.get("arguments") or []:
            if arg.get("kind") in ("option", "flag"):
                for n in arg.get("names") or []:
                    if n.get("kind") in ("long", "longWithSingleDash"):
                        node.options.add(n["name"])
        for sub in info.get("subcommands") or []:
            if sub["commandName"] == "help":
                continue
            node.subcommands[sub["commandName"]] = build(sub, node.path)
        return node

    return build(json.loads(out.stdout)["command"], "")


# ---- Markdown reading --------------------------------------------------------------------------------

@dataclass
class Piece:
    """A code span (kind "span") or one shell command of a code block (kind "block"), with its line."""
    kind: str
    text: str
    line: int


def prose_spans(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[Piece]]:
    """Code spans of prose lines, which may run over a line break inside a paragraph (table rows and
    headings stand alone), and the lines with their spans blanked out."""
    blocks: list[list[tuple[int, str]]] = []
    for number, line in lines:
        alone = line.lstrip().startswith(("|", "#")) or not line.strip()
        if alone or not blocks or blocks[-1][-1][1].lstrip().startswith(("|", "#")) or not blocks[-1][-1][1].strip() \
                or blocks[-1][-1][0] != number - 1:
            blocks.append([(number, line)])
        else:
            blocks[-1].append((number, line))
    pieces: list[Piece] = []
    blanked: list[tuple[int, str]] = []
    for block in blocks:
        text = "\n".join(line for _, line in block)
        starts = [0]
        for _, line in block:
            starts.append(starts[-1] + len(line) + 1)
        for span in SPAN_RE.finditer(text):
            index = max(i for i, st in enumerate(starts[:-1]) if st <= span.start())
            pieces.append(Piece("span", " ".join(span.group(2).split()), block[index][0]))
        text = SPAN_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        blanked += [(number, line) for (number, _), line in zip(block, text.split("\n"))]
    return blanked, pieces


def read_markdown(path: Path) -> tuple[list[tuple[int, str]], list[Piece]]:
    """Prose lines (code spans blanked out) and code pieces."""
    prose: list[tuple[int, str]] = []
    pieces: list[Piece] = []
    fence: str | None = None
    pending = ""
    pending_line = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        m = FENCE_RE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)):].strip():
                fence = None
                if pending:
                    pieces.append(Piece("block", pending, pending_line))
                    pending = ""
                continue
            stripped = line.rstrip()
            if not pending:
                pending_line = number
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            pending += stripped
            pieces.append(Piece("block", pending, pending_line))
            pending = ""
            continue
        if m:
            fence = m.group(1)
            continue
        prose.append((number, line))
    prose, spans = prose_spans(prose)
    return prose, pieces + spans


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # links keep their text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path, cache: dict[Path, set[str]]) -> set[str]:
    if path not in cache:
        found: set[str] = set()
        seen: dict[str, int] = {}
        prose, _ = read_markdown(path)
        raw = path.read_text(encoding="utf-8").splitlines()
        for number, _line in prose:
            line = raw[number - 1]
            m = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for a in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", line):
                found.add(a.group(1))
        cache[path] = found
    return cache[path]


def check_links(path: Path, cache: dict[Path, set[str]]) -> tuple[int, list[str]]:
    problems: list[str] = []
    count = 0
    prose, _ = read_markdown(path)
    rel = path.relative_to(ROOT)
    for number, line in prose:
        targets = [m.group(1) for m in LINK_RE.finditer(line)]
        ref = REFDEF_RE.match(line)
        if ref:
            targets.append(ref.group(1))
        for target in targets:
            if SCHEME_RE.match(target) or target.startswith("//"):
                continue
            count += 1
            file_part, _, anchor = target.partition("#")
            if file_part:
                base = ROOT if file_part.startswith("/") else path.parent
                dest = (base / file_part.lstrip("/")).resolve()
                if not dest.exists():
                    problems.append(f"{rel}:{number}: The link {target} points to {os.path.relpath(dest, ROOT)}, which does not exist.")
                    continue
            else:
                dest = path
            if anchor and dest.is_file() and dest.suffix == ".md" and anchor not in anchors(dest, cache):
                problems.append(f"{rel}:{number}: The link {target} names #{anchor}, which is no heading of {os.path.relpath(dest, ROOT)}.")
    return count, problems


# ---- Command mentions ---------------------------------------------------------------------------------

def is_placeholder(token: str) -> bool:
    return (token[:1] in "<[{$\"'…" or token.endswith("…") or token == "..." or
            (token.isupper() and len(token) > 1) or "…" in token)


def block_commands(text: str) -> list[list[str]]:
    """The shell commands of one code-block line, as token lists, comments and redirections removed."""
    text = re.sub(r"(^|\s)#.*$", "", text)
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        tokens = text.split()
    commands: list[list[str]] = [[]]
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in SHELL_BREAKS or token.startswith("$("):
            commands.append([])
        elif set(token) <= set("<>&") or re.fullmatch(r"\d*[<>]+&?\d*", token):
            skip_next = not token.endswith("&1") and not token.endswith("&2")
        else:
            commands[-1].append(token)
    return [c for c in commands if c]


def span_tokens(text: str) -> list[str]:
    return text.replace("\\|", "|").split()


def check_mention(tokens: list[str], tree: Command) -> tuple[str | None, list[str], list[str]]:
    """Checks the tokens after `swingmaster` (or a span's tokens when it starts with a command name).

    Returns (what was checked, for messages; problems as sentence endings; flags checked)."""
    rest = list(tokens)
    while rest and rest[0].startswith("-"):
        rest.pop(0)      # swingmaster --help / --version
    if not rest:
        return None, [], []
    head = rest.pop(0)
    commands = ", ".join(sorted(tree.subcommands))
    if head == "help":
        if rest and not is_placeholder(rest[0]) and rest[0] not in tree.subcommands:
            return f"swingmaster help {rest[0]}", [f"There is no command swingmaster {rest[0]} (the commands: {commands})"], []
        return None, [], []
    if is_placeholder(head):
        return None, [], []
    names = [n for n in re.split(r"[|/]", head) if n]
    nodes: list[Command] = []
    problems: list[str] = []
    for name in names:
        if name in tree.subcommands:
            nodes.append(tree.subcommands[name])
        else:
            problems.append(f"There is no command swingmaster {name} (the commands: {commands})")
    if not nodes:
        return f"swingmaster {head}", problems, []
    # A subcommand: the next word, when every command named has subcommands.
    # Alternatives may run on over the next words (`list|show ID|delete ID`): every lower-case piece
    # before the first flag is then a subcommand, upper-case pieces are their arguments.
    if all(n.subcommands for n in nodes) and rest and not rest[0].startswith("-") and not is_placeholder(rest[0]):
        word = rest.pop(0)
        subs = [s for s in re.split(r"[|/]", word) if s]
        while "|" in word and rest and "|" in rest[0] and not rest[0].startswith("-"):
            subs += [s for s in rest.pop(0).split("|") if s and not is_placeholder(s)]
        chosen: list[Command] = []
        for node in nodes:
            for s in subs:
                if s in node.subcommands:
                    chosen.append(node.subcommands[s])
                else:
                    problems.append(f"There is no command {node.path} {s} (its subcommands: {', '.join(sorted(node.subcommands))})")
        nodes = chosen or nodes
    options: set[str] = set()
    for node in nodes:
        options |= node.all_options()
    flags = FLAG_RE.findall(" ".join(rest))
    label = " or ".join(n.path for n in nodes)
    for flag in flags:
        if flag not in options and flag not in BUILTIN_FLAGS:
            problems.append(f"There is no option --{flag} in {label}")
    return label, problems, flags


def check_commands(path: Path, tree: Command) -> tuple[int, int, list[str]]:
    problems: list[str] = []
    mentions = flags_checked = 0
    every_flag = tree.all_options() | BUILTIN_FLAGS
    rel = path.relative_to(ROOT)
    _, pieces = read_markdown(path)
    for piece in pieces:
        groups = block_commands(piece.text) if piece.kind == "block" else [span_tokens(piece.text)]
        for tokens in groups:
            start = next((i for i, t in enumerate(tokens) if t.rstrip(",.;:").split("/")[-1] == "swingmaster"), None)
            if start is not None:
                label, found, flags = check_mention(tokens[start + 1:], tree)
            elif piece.kind == "span" and tokens and tokens[0] in tree.subcommands and (
                    FLAG_RE.search(piece.text) or (len(tokens) > 1 and tokens[1] in tree.subcommands[tokens[0]].subcommands)):
                label, found, flags = check_mention(tokens, tree)
            elif piece.kind == "span" and tokens and tokens[0].startswith("--"):
                flags = FLAG_RE.findall(piece.text)
                label, found = "swingmaster", [f"No swingmaster command has the option --{f}" for f in flags if f not in every_flag]
            else:
                continue
            if label is None:
                continue
            mentions += 1
            flags_checked += len(flags)
            for problem in found:
                problems.append(f"{rel}:{piece.line}: `{' '.join(tokens)[:70]}`: {problem}.")
    return mentions, flags_checked, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/swingmaster"),
                        help="the built swingmaster to ask for its commands (default: .build/debug/swingmaster)")
    parser.add_argument("--links-only", action="store_true", help="check links only (no binary needed)")
    parser.add_argument("files", nargs="*", help="Markdown files (default: README.md, CONTRIBUTING.md, CHANGELOG.md, docs/*.md)")
    args = parser.parse_args()

    files = [Path(f).resolve() for f in args.files] or (
        [ROOT / n for n in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md") if (ROOT / n).exists()]
        + sorted((ROOT / "docs").glob("*.md")))
    tree = None
    if not args.links_only:
        binary = Path(args.binary)
        if not os.access(binary, os.X_OK):
            print(f"check_docs: The binary {binary} does not exist; build it first with `swift build --product swingmaster` "
                  "(or run make check-docs).", file=sys.stderr)
            return 1
        tree = load_tree(binary)

    problems: list[str] = []
    links = mentions = flags = 0
    cache: dict[Path, set[str]] = {}
    for path in files:
        n, found = check_links(path, cache)
        links += n
        problems += found
        if tree is not None and path.name != "CHANGELOG.md":
            m, f, found = check_commands(path, tree)
            mentions += m
            flags += f
            problems += found
    for problem in problems:
        print(problem)
    what = f"{len(files)} files, {links} relative links"
    if tree is not None:
        what += f", {mentions} swingmaster command mentions with {flags} flags"
    print(f"check_docs: {what}; {len(problems)} problem{'s' if len(problems) != 1 else ''}.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
