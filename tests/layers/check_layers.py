#!/usr/bin/python3
"""The layers of docs/architecture.md, checked: every #include in core/, widgets/, app/ and python/
must follow an arrow the ALLOWED table below permits, reach only another module's public
headers (those directly in its folder, never a subfolder such as ros1/ or detail/; in
widgets/, those of its rooms), and
nothing in core/ may include Qt. No text of the core names a command-line flag ("--overwrite"):
the core is not the CLI; what the user can do travels as data (Error::remedy) and each front
end words it.

    check_layers.py SOURCE_ROOT [INCLUDE_VIEWS COMPILER]

With INCLUDE_VIEWS (the build's include-views/, core/CMakeLists.txt) it also checks that
each library's include view holds exactly the folders ALLOWED gives it, and that the
compiler, through those views, refuses an arrow going back up (core/storage including
core/session) and accepts one that is allowed.

An arrow that must stay for a while although it breaks the rules is listed in KNOWN_LEAKS
(empty since issue #18 removed the last); the check fails on a new leak, and on a listed one
that is gone (so the list only shrinks). Exit status 0 when the tree follows the rules."""
import os
import re
import subprocess
import sys

# module -> the modules it may include (besides itself)
ALLOWED = {
    'core/base': set(),
    'core/compress': {'core/base'},
    'core/schema': {'core/base'},
    'core/decode': {'core/base', 'core/schema'},
    'core/storage': {'core/base', 'core/compress', 'core/schema'},
    'core/sensors': {'core/base', 'core/decode', 'core/schema'},
    'core/scene': {'core/base', 'core/decode', 'core/schema', 'core/sensors'},
    'core/session': {'core/base', 'core/compress', 'core/decode', 'core/schema', 'core/storage'},
    'core/export': {'core/analysis', 'core/base', 'core/decode', 'core/schema', 'core/sensors', 'core/session',
                    'core/storage'},
    'core/analysis': {'core/base'},
    'core/write': {'core/base', 'core/compress', 'core/decode', 'core/schema', 'core/session', 'core/storage'},
    'widgets': {'core/analysis', 'core/base', 'core/decode', 'core/export', 'core/scene', 'core/sensors', 'core/session',
                'core/write'},
    'app/cli': {'core/analysis', 'core/base', 'core/decode', 'core/export', 'core/sensors', 'core/session',
                'core/write'},
    'app/gui': {'core/base', 'widgets'},
    'python': {'core/base', 'core/compress', 'core/decode', 'core/export', 'core/schema', 'core/sensors', 'core/session',
               'core/storage', 'core/write'},
}

# The rooms of widgets/ (docs/architecture.md): their headers are public to the app and the
# tests, included by rooted paths ("widgets/shell/main_window.hpp").
WIDGET_ROOMS = {'widgets', 'widgets/async', 'widgets/shell', 'widgets/dialogs', 'widgets/panels',
                'widgets/panels/plot', 'widgets/panels/scene3d'}

# (including file, included header): tolerated leaks, to be removed.
KNOWN_LEAKS = set()

INCLUDE = re.compile(r'\s*#\s*include\s*[<"]([^">]+)[">]')


def module_of(path):
    parts = path.split('/')
    return '/'.join(parts[:2]) if parts[0] in ('core', 'app') else parts[0]


def view_problems(root, views, compiler):
    """What is wrong with the build's include views: their folders against ALLOWED, and a
    compile through the storage view of a header it may and one it may not include."""
    problems = []
    for name in sorted(os.listdir(views)):
        here = 'widgets' if name == 'widgets' else f'core/{name}'
        if here not in ALLOWED:
            continue
        core = os.path.join(views, name, 'core')
        linked = {f'core/{n}' for n in os.listdir(core)} if os.path.isdir(core) else set()
        if os.path.exists(os.path.join(views, name, 'widgets')):
            linked.add('widgets')
        if linked != ALLOWED[here] | {here}:
            problems.append(f'include view {name} holds {sorted(linked)}, '
                            f'the layers allow {sorted(ALLOWED[here] | {here})}')
    storage_view = os.path.join(views, 'storage')
    for header, allowed in (('core/storage/source.hpp', True), ('core/session/session.hpp', False)):
        compiled = subprocess.run([compiler, '-std=c++20', '-fsyntax-only', '-x', 'c++', f'-I{storage_view}', '-'],
                                  input=f'#include "{header}"\n', text=True, capture_output=True)
        if (compiled.returncode == 0) != allowed:
            problems.append(f'through the storage view, #include "{header}" '
                            f'{"fails" if allowed else "compiles"}: {compiled.stderr.strip()[:300]}')
    return problems


# A string literal that names a flag: "--overwrite", "... (--field) ...".
FLAG_IN_TEXT = re.compile(r'"(?:[^"\\\n]|\\.)*?(?<![A-Za-z0-9-])--[a-z][a-z-]*(?:[^"\\\n]|\\.)*"')


def code_part(line):
    """The line without its // comment (a // inside a string literal is kept)."""
    quoted = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != '\\'):
            quoted = not quoted
        elif not quoted and line.startswith('//', i):
            return line[:i]
    return line


def main():
    root = sys.argv[1]
    problems, seen, files = [], set(), 0
    for top in ('core', 'widgets', 'app', 'python'):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(('.cpp', '.hpp', '.h')):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')
                files += 1
                here = module_of(path)
                with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
                    for number, line in enumerate(f, 1):
                        if here.startswith('core/') and FLAG_IN_TEXT.search(code_part(line)):
                            problems.append(f'{path}:{number}: a core text names a command-line flag')
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        header = m.group(1)
                        if here.startswith('core/') and re.match(r'Q[A-Za-z]', header):
                            problems.append(f'{path}:{number}: the core includes Qt ({header})')
                            continue
                        if not header.startswith(('core/', 'widgets/', 'app/')):
                            continue
                        there = module_of(header)
                        if there == here:
                            continue
                        if there == 'widgets':
                            inner = header.rsplit('/', 1)[0] not in WIDGET_ROOMS
                        else:
                            inner = header.count('/') > 2
                        if there not in ALLOWED.get(here, set()) or inner:
                            if (path, header) in KNOWN_LEAKS:
                                seen.add((path, header))
                                continue
                            why = 'a header inside another module' if there in ALLOWED.get(here, set()) else \
                                f'{here} may not depend on {there}'
                            problems.append(f'{path}:{number}: includes {header}: {why}')
    for path, header in sorted(KNOWN_LEAKS - seen):
        problems.append(f'{path} no longer includes {header}: remove it from KNOWN_LEAKS')
    if len(sys.argv) > 3:
        problems += view_problems(root, sys.argv[2], sys.argv[3])
    for p in problems:
        print(p)
    print(f'{files} files; {len(seen)} known leaks left; {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
