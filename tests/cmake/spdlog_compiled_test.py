#!/usr/bin/env python3
"""Fails if a unit includes spdlog outside log/, or without linking spdlog::spdlog.

Only shared/log/ (and its unit test) may include spdlog. Everything else logs
through log/log.h: a formatted spdlog call formats in the calling unit, and
so compiled fmt's whole formatting engine into every unit that logged,
which made those units slow to compile.

Debian's spdlog is a compiled library; its target carries SPDLOG_COMPILED_LIB
and SPDLOG_FMT_EXTERNAL. A target that includes <spdlog/spdlog.h> but does not
link spdlog::spdlog compiles all of spdlog (and its bundled fmt) header-only,
in that translation unit, several times slower to build than its
neighbours, and the executable then defines spdlog's code, its registry included, a second time
beside the shared library's.

Usage: spdlog_compiled_test.py <build tree>. Reads compile_commands.json and
each object's dependency file (<object>.d, as the Makefile generator keeps
it) or, in a Ninja tree, `ninja -t deps`.
"""
import json
import os
import re
import subprocess
import sys

tree = sys.argv[1]
entries = json.load(open(os.path.join(tree, "compile_commands.json")))

ninja_deps = {}
if os.path.exists(os.path.join(tree, ".ninja_deps")):
    out = subprocess.run(["ninja", "-C", tree, "-t", "deps"], capture_output=True, text=True,
                         check=True).stdout
    current = None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            current = line.split(":")[0]
            ninja_deps[current] = ""
        elif current:
            ninja_deps[current] += line + "\n"

LOG_UNITS = ("/shared/log/", "/tests/unit/shared/log/")

checked = 0
offenders = []
outside = []
unknown = []  # a unit whose dependencies cannot be read is not passed unseen
for entry in entries:
    command = entry.get("command") or " ".join(entry.get("arguments", []))
    match = re.search(r"-o (\S+)", command)
    obj = match.group(1) if match else None
    depfile = os.path.join(entry["directory"], obj + ".d") if obj else ""
    if obj and os.path.exists(depfile):
        deps = open(depfile).read()
    elif obj in ninja_deps:
        deps = ninja_deps[obj]
    else:
        unknown.append(entry["file"])
        continue
    checked += 1
    if "/spdlog/" in deps and "-DSPDLOG_COMPILED_LIB" not in command:
        offenders.append(entry["file"])
    if "/spdlog/" in deps and not any(part in entry["file"] for part in LOG_UNITS):
        outside.append(entry["file"])

if unknown:
    sys.exit(f"no dependency information for {len(unknown)} of {len(entries)} units under {tree}"
             f" (build the whole tree first), for example {unknown[0]}")
if offenders:
    print("these files include spdlog but their target does not link spdlog::spdlog,"
          " so spdlog compiles header-only in each:", file=sys.stderr)
    for f in offenders:
        print("  " + f, file=sys.stderr)
    sys.exit(1)
if outside:
    print("these files include spdlog; log through log/log.h instead:", file=sys.stderr)
    for f in outside:
        print("  " + f, file=sys.stderr)
    sys.exit(1)
print(f"{checked} translation units checked: spdlog is included by log/ alone, compiled")
