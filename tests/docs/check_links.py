#!/usr/bin/env python3
"""Links in README.md, BENCHMARKS.md and docs/*.md resolve: every relative link names a file of
the repository, and every #anchor a heading of the page it points into (GitHub's slugs). Web
links (http, https, mailto) are not fetched: CI has no network. Also checks
tests/docs/readme_headings.txt: each heading the README had before the docs moved out is found
at the page and heading it names (nothing lost).
  check_links.py SOURCE_DIR"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')


def slug(title):
    s = title.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def headings(path):
    out, fence = set(), False
    counts = {}
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
        m = None if fence else re.match(r'^#{1,6} (.*?)\s*#*$', line.rstrip('\n'))
        if m:
            s = slug(re.sub(r'`', '', m.group(1)))
            n = counts.get(s, 0)
            counts[s] = n + 1
            out.add(s if n == 0 else '%s-%d' % (s, n))
    return out


def pages():
    yield os.path.join(root, 'README.md')
    yield os.path.join(root, 'BENCHMARKS.md')
    docs = os.path.join(root, 'docs')
    for f in sorted(os.listdir(docs)):
        if f.endswith('.md'):
            yield os.path.join(docs, f)


fail = 0
checked = 0
for page in pages():
    if not os.path.exists(page):
        continue
    text, fence = [], False
    for n, line in enumerate(open(page, encoding='utf-8'), 1):
        if line.startswith('```'):
            fence = not fence
            continue
        if fence:
            continue
        for m in re.finditer(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)', line):
            target = m.group(1)
            if re.match(r'^(https?|mailto):', target):
                continue
            checked += 1
            path, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = '%s:%d' % (os.path.relpath(page, root), n)
            if not os.path.exists(dest):
                print('check_links: %s: %s: no such file' % (where, target))
                fail = 1
            elif anchor and dest.endswith('.md') and anchor not in headings(dest):
                print('check_links: %s: %s: no heading with that anchor in %s' % (where, target, os.path.relpath(dest, root)))
                fail = 1

mapping = os.path.join(root, 'tests', 'docs', 'readme_headings.txt')
moved = 0
for n, line in enumerate(open(mapping, encoding='utf-8'), 1):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    old, _, new = line.partition(' -> ')
    path, _, anchor = new.partition('#')
    dest = os.path.join(root, path)
    moved += 1
    if not os.path.exists(dest) or (anchor and anchor not in headings(dest)):
        print('check_links: readme_headings.txt:%d: "%s" is not at %s' % (n, old, new))
        fail = 1
print('check_links: %d links checked, %d old README headings found%s' % (checked, moved, '' if fail else ', all resolve'))
sys.exit(fail)
