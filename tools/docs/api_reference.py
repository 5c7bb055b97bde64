#!/usr/bin/env python3
"""The API reference, generated from the public headers by Doxygen (docs/Doxyfile).

  api_reference.py OUTDIR            run Doxygen into OUTDIR (html/, xml/), write OUTDIR/api.md,
                                     and check it: every exported function (VKS_API in include/)
                                     is listed with a description, and docs/api.md is the same text
  api_reference.py OUTDIR --write    the same, then copy OUTDIR/api.md over docs/api.md
Run from anywhere; exit 0 when the reference is whole and docs/api.md is current, 1 otherwise,
77 when doxygen is not installed."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))


def text_of(node):
    """A description element's text, paragraphs kept apart, program listings dropped."""
    if node is None:
        return ''
    paras = []
    for p in node.iter('para'):
        t = ''.join(p.itertext())
        t = re.sub(r'\s+', ' ', t).strip()
        if t:
            paras.append(t)
    # nested paras repeat their parents' text: keep the outermost ones
    out = []
    for t in paras:
        if not any(t in o for o in out):
            out.append(t)
    return '\n\n'.join(out)


def exported_functions():
    names = {}
    for dirpath, _, files in os.walk(os.path.join(ROOT, 'include')):
        for f in sorted(files):
            if not f.endswith('.h'):
                continue
            path = os.path.join(dirpath, f)
            src = open(path, encoding='utf-8').read()
            for m in re.finditer(r'^\s*VKS_API\b[^;(]*?\b(vks_\w+)\s*\(', src, re.M):
                names[m.group(1)] = os.path.relpath(path, ROOT)
    return names


def run_doxygen(out):
    os.makedirs(out, exist_ok=True)
    conf = open(os.path.join(ROOT, 'docs', 'Doxyfile'), encoding='utf-8').read()
    conf += '\nOUTPUT_DIRECTORY = %s\nWARN_LOGFILE = %s\n' % (out, os.path.join(out, 'doxygen-warnings.txt'))
    subprocess.run(['doxygen', '-'], input=conf, text=True, cwd=ROOT, check=True)


def read_xml(out):
    headers = {}
    xml = os.path.join(out, 'xml')
    for f in sorted(os.listdir(xml)):
        if not f.endswith('_8h.xml'):
            continue
        cd = ET.parse(os.path.join(xml, f)).getroot().find('compounddef')
        loc = cd.find('location').get('file')
        rel = os.path.relpath(os.path.join(ROOT, loc), ROOT) if not os.path.isabs(loc) else os.path.relpath(loc, ROOT)
        funcs = []
        for md in cd.iter('memberdef'):
            if md.get('kind') != 'function':
                continue
            name = md.findtext('name')
            sig = re.sub(r'\s+', ' ', (md.findtext('definition') or '') + (md.findtext('argsstring') or '')).strip()
            desc = '\n\n'.join(t for t in (text_of(md.find('briefdescription')),
                                            text_of(md.find('detaileddescription'))) if t)
            funcs.append((name, sig, desc))
        headers[rel] = (text_of(cd.find('briefdescription')) or text_of(cd.find('detaileddescription')), funcs)
    return headers


def header_comment(rel):
    """The header's first comment as its author wrote it (the STEP BY STEP, THREADS, ...), line
    for line: Doxygen's text keeps the words but not the layout the steps are read in."""
    path = os.path.join(ROOT, rel)
    if not os.path.exists(path):
        return ''
    src = open(path, encoding='utf-8').read()
    m = re.match(r'\s*/\*(.*?)\*/', src, re.S)
    if not m:
        return ''
    lines = [re.sub(r'^\s?\* ?', '', l).rstrip() for l in m.group(1).split('\n')]
    return '\n'.join(lines).strip()


def markdown(headers):
    lines = ['# API reference', '',
             'Generated from the public headers by Doxygen (`tools/docs/api_reference.py`; the test',
             '`docs_api_reference` fails when this page is not what the headers say, or when an exported',
             'function has no description). Each header starts with a STEP BY STEP: open it for the',
             'examples and the threading rules.', '']
    for h in sorted(headers):
        summary, funcs = headers[h]
        if not funcs and not header_comment(h):
            continue
        lines.append('- [`%s`](#%s) (%d)' % (h, re.sub(r'[^a-z0-9_-]', '', h.lower().replace('/', '').replace('.', '')), len(funcs)))
    lines.append('')
    for h in sorted(headers):
        summary, funcs = headers[h]
        if not funcs and not header_comment(h):
            continue
        lines += ['## %s' % h, '']
        comment = header_comment(h)
        if comment:
            lines += ['```text', comment, '```', '']
        for name, sig, desc in sorted(funcs):
            lines += ['### `%s`' % name, '', '```c', sig + ';', '```', '', desc or '(no description)', '']
    return '\n'.join(lines).rstrip('\n') + '\n'


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    if not shutil.which('doxygen'):
        print('api_reference: doxygen is not installed (Debian: apt-get install doxygen)')
        return 77
    run_doxygen(out)
    headers = read_xml(out)
    text = markdown(headers)
    open(os.path.join(out, 'api.md'), 'w', encoding='utf-8').write(text)
    fail = 0
    documented = {n: d for _, (_, fs) in headers.items() for n, _, d in fs}
    for name, header in sorted(exported_functions().items()):
        if name not in documented:
            print('api_reference: %s (%s) is exported but not in the reference' % (name, header))
            fail = 1
        elif not documented[name]:
            print('api_reference: %s (%s) has no description: put a comment above it' % (name, header))
            fail = 1
    target = os.path.join(ROOT, 'docs', 'api.md')
    if '--write' in sys.argv[2:]:
        open(target, 'w', encoding='utf-8').write(text)
    elif not os.path.exists(target) or open(target, encoding='utf-8').read() != text:
        print('api_reference: docs/api.md is not what the headers say: run tools/docs/api_reference.py DIR --write')
        fail = 1
    print('api_reference: %d functions in %d headers%s' % (len(documented), len(headers), '' if fail else ', every one described'))
    return fail


if __name__ == '__main__':
    sys.exit(main())
