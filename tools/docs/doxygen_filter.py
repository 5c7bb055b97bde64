#!/usr/bin/env python3
"""Doxygen INPUT_FILTER for vkskin's public headers, which document in plain C comments.

The headers stay as they are (plain /* */ comments, read by people first); this filter shows
Doxygen the same text as documentation, line for line (so source links stay right):
  - the file's first comment is the file's documentation (its STEP BY STEP included);
  - a comment on lines of its own, directly above a declaration, documents that declaration;
  - a comment after code on the same line documents that member (/**< ... */);
  - a run of declarations under one comment (no blank line between) shares it: each later
    declaration of the run gets the comment again, folded onto its own line.
"""
import re
import sys

DECL = re.compile(r'^\s*(VKS_API|typedef|struct|enum|union|#define)\b')


def comment_text(block):
    text = ' '.join(l.strip().lstrip('/*').rstrip('*/').strip() for l in block)
    return re.sub(r'\s+', ' ', text).replace('*/', '* /').strip()


def main(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    out = list(lines)
    i, first = 0, True
    shared = None  # the comment over the current run of declarations
    while i < len(lines):
        ln = lines[i]
        s = ln.lstrip()
        if s.startswith('/*') and not s.startswith('/**'):
            j = i
            while '*/' not in lines[j] and j + 1 < len(lines):
                j += 1
            block = lines[i:j + 1]
            if first:
                out[i] = ln.replace('/*', '/**', 1)
                out[j] = out[j].replace('*/', '@file */', 1) if j > i else out[j].replace('*/', ' @file */', 1)
                first = False
                shared = None
            else:
                nxt = lines[j + 1] if j + 1 < len(lines) else ''
                if nxt.strip() and not nxt.lstrip().startswith('/*'):
                    out[i] = ln.replace('/*', '/**', 1)
                    shared = comment_text(block)
                else:
                    shared = None
            i = j + 1
            continue
        if not s:
            shared = None
        elif re.search(r'[;{,]\s*/\*(?!\*)', ln):
            out[i] = re.sub(r'([;{,]\s*)/\*(?!\*)', r'\1/**<', ln, count=1)
        elif s.startswith('VKS_API') and shared and i > 0 and not lines[i - 1].lstrip().startswith(('/*', '*')) \
                and not lines[i - 1].rstrip().endswith('*/'):
            out[i] = '/** %s */ %s' % (shared, ln)
        i += 1
    sys.stdout.write('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
