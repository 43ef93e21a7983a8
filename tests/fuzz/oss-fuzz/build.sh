#!/bin/bash -eu
# Builds vx's libFuzzer harnesses (tests/fuzz/README.md) for OSS-Fuzz and ClusterFuzzLite, under
# their build contract: the compiler $CXX with $CXXFLAGS (the sanitizer and coverage flags; vx
# has no C, so $CC and $CFLAGS are not used), the fuzzing engine $LIB_FUZZING_ENGINE when
# linking, scratch files in $WORK, everything the fuzzing machine needs in $OUT. The source is
# $SRC/vx (VX_SRC overrides it).
# Downloads nothing: the Dockerfile installs the Debian/Ubuntu packages vx builds with.
#
# For each harness NAME, $OUT gets:
#   fuzz_NAME                    the harness
#   fuzz_NAME_seed_corpus.zip    its seeds: the conformance corpus, fleet/ and
#                                tests/fuzz/regressions/NAME, as tools/fuzz seeds it
#   fuzz_NAME.dict               the dictionary of the Vx grammar (tests/fuzz/vx.dict)
#   fuzz_NAME.options            libFuzzer's options: that dictionary, -max_len and -timeout as
#                                tools/fuzz runs them
# and $OUT/lib the shared libraries a harness loads that are not the C library's own (TBB,
# libedit, the C++ library …), which the runner image may lack; each harness finds them through
# its rpath, $ORIGIN/lib.
#
# VX_FUZZ_HARNESSES="expectations parse" builds only those (default: all of tests/fuzz.cmake's);
# tests/oss_fuzz_test.py runs this script on a developer's machine with clang.
root="${VX_SRC:-$SRC/vx}"
build="$WORK/vx-fuzz-build"
generator="Unix Makefiles"
if command -v ninja >/dev/null; then generator=Ninja; fi
# vx is C++ only: $CC and $CFLAGS have nothing to compile. It is a unity build
# (tests/unity_check.py says why that is safe).
cmake -S "$root" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DVX_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DCMAKE_UNITY_BUILD=ON
harnesses="${VX_FUZZ_HARNESSES:-$(cat "$build/fuzz_harnesses.txt")}"
targets=()
for h in $harnesses; do targets+=("fuzz_$h"); done
cmake --build "$build" --parallel "${VX_BUILD_JOBS:-$(nproc)}" --target "${targets[@]}"

mkdir -p "$OUT/lib"
for h in $harnesses; do
  cp "$build/fuzz_$h" "$OUT/fuzz_$h"
  cp "$root/tests/fuzz/vx.dict" "$OUT/fuzz_$h.dict"
  printf '[libfuzzer]\ndict = fuzz_%s.dict\nmax_len = 65536\ntimeout = 25\n' "$h" \
    >"$OUT/fuzz_$h.options"
  # A library an earlier harness brought is found there already (through the rpath).
  ldd "$OUT/fuzz_$h" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux*) ;;
      *) [ -e "$OUT/lib/$(basename "$lib")" ] || cp -L "$lib" "$OUT/lib/" ;;
    esac
  done
done
python3 "$root/tests/fuzz/oss-fuzz/seed_corpora.py" "$root" "$OUT" $harnesses
