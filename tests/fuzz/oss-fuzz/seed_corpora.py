#!/usr/bin/env python3
"""Writes OUT/fuzz_NAME_seed_corpus.zip for each harness NAME (OSS-Fuzz's convention): the seeds
tools/fuzz gives it (its SEEDS table: the conformance corpus, fleet/), and its regression inputs
tests/fuzz/regressions/NAME. Each file is stored under its path with `/` as `_`, so that files
of one name in two folders stay two entries.

usage: seed_corpora.py ROOT OUT NAME...
"""
import importlib.machinery
import importlib.util
import os
import sys
import zipfile


def load_tools_fuzz(root):
    path = os.path.join(root, "tools", "fuzz")
    loader = importlib.machinery.SourceFileLoader("vx_tools_fuzz", path)
    spec = importlib.util.spec_from_loader("vx_tools_fuzz", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    root, out, harnesses = sys.argv[1], sys.argv[2], sys.argv[3:]
    seeds = load_tools_fuzz(root).SEEDS
    for harness in harnesses:
        sources = seeds[harness] + [(os.path.join("tests", "fuzz", "regressions", harness), ("",))]
        target = os.path.join(out, "fuzz_%s_seed_corpus.zip" % harness)
        count = 0
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
            for folder, suffixes in sources:
                for base, _, files in sorted(os.walk(os.path.join(root, folder))):
                    for f in sorted(files):
                        if f.endswith(suffixes) and not f.startswith("."):
                            path = os.path.join(base, f)
                            z.write(path, os.path.relpath(path, root).replace(os.sep, "_"))
                            count += 1
        print("%s: %d seeds" % (os.path.basename(target), count))


if __name__ == "__main__":
    main()
