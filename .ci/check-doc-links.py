#!/usr/bin/env python3
"""Run from the repository root: .ci/check-doc-links.py. Checks every relative link in README.md, docs/**/*.md and benchmarks/README.md: the file exists
and, with a #fragment into a Markdown file, the heading exists (GitHub's anchor rules)."""
import os, re, sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
pages = ["README.md", "benchmarks/README.md"]
for directory, _, files in os.walk(os.path.join(root, "docs")):
    for name in files:
        if name.endswith(".md"):
            pages.append(os.path.relpath(os.path.join(directory, name), root))

def anchors(path):
    result, counts = set(), {}
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))
        slug = text.strip().lower()
        slug = re.sub(r"[^\w\- ]", "", slug)
        slug = slug.replace(" ", "-")
        n = counts.get(slug, 0)
        counts[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', open(path, encoding="utf-8").read()):
        result.add(m.group(1))
    return result

link = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
failures = 0
for page in pages:
    text = open(os.path.join(root, page), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for m in link.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, fragment = target.partition("#")
        resolved = os.path.normpath(os.path.join(root, os.path.dirname(page), path)) if path else os.path.join(root, page)
        if not os.path.exists(resolved):
            print(f"{page}: {target}: no such file")
            failures += 1
            continue
        if fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
            print(f"{page}: {target}: no such heading")
            failures += 1
print(f"{len(pages)} pages, {failures} broken links")
sys.exit(1 if failures else 0)
