#!/bin/bash -eu
# ClusterFuzzLite's build script: the one OSS-Fuzz runs too (its comments say what it builds).
exec "$SRC/vx/tests/fuzz/oss-fuzz/build.sh"
