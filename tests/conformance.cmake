# Tests of the value formatter and of the conformance runner, and the runner caught against a
# deliberately wrong implementation. Included from the top-level CMakeLists.txt, after the
# `vx_core` library and the `vx` executable are defined.
foreach(test format_test conformance_runner_test)
  vx_doctest(${test})
endforeach()


# Hostile input to the command (issue 14): sources over 16 MiB, one long line, bad machine
# files, JSON errors, JUnit XML that stays well-formed. Needs python3 (not optional: without it
# the test fails rather than pass unseen).
vx_doctest(source_test)
add_test(NAME cli_inputs
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/cli_inputs_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})

# The runner against a deliberately wrong implementation: text, JSON, JUnit and --xfail.
add_test(NAME conformance_wrong_impl
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/conformance_wrong_impl.py $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(conformance_wrong_impl PROPERTIES TIMEOUT 900)

# The implementer's day (issue 40): progress as it goes (a pipe, a pty), an implementation that
# cannot start, no orphans after SIGKILL or SIGHUP of the runner, --impl-format=json against vx
# itself, --write-xfail then --xfail.
add_test(NAME conformance_implementer
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/conformance_implementer_test.py $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(conformance_implementer PROPERTIES TIMEOUT 600)

# `--dump=ast|typed|kernels|cuda|uir`: each step's output for a program worked out by hand.
add_test(NAME pipeline_dumps
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/pipeline_dumps_test.py $<TARGET_FILE:vx>)

# `vx run --dump=FILE.json` and `vx diff`: a program worked out by hand, every type of the
# language, an early return, every corpus program's document diffed with itself and validated
# against spec/values.schema.json, and diffs of documents written by the test (spec/cli.md §2.1).
# It runs under Debian's python3, whose python3-jsonschema tools/setup installs.
# The sanitizer build dumps every fourth corpus program (CI in 30 minutes: 111 s under ASan with
# every second).
set(vx_values_every 1)
if(VX_SANITIZE)
  set(vx_values_every 4)
endif()
add_test(NAME values
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/values_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance --every ${vx_values_every})

# Deep and wide JSON on every surface that reads it (`vx diff`, `vx repl --protocol=jsonl`): a
# value nested 100,000 deep, and at the limit of 512 and one past it (issue 35).
add_test(NAME json_depth
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/json_depth_test.py $<TARGET_FILE:vx>)

# Every numeric option through one range check (NaN, ±inf, 2^63, negatives), `vx repl
# --max-steps/--max-seconds`, and `no CUDA device` as JSON under --error-format=json (issue 35).
add_test(NAME cli_options
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/cli_options_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})

# The borrow rule of spec/types.md §4 (E0305) against a model of it: random programs of tensors,
# references bound with let, assignments, moves and reads; the refused ones at the right line, the
# accepted ones printing what the model computes (the sanitizer build runs 150 of the 300).
if(VX_SANITIZE)
  set(vx_let_borrows_count 150)
else()
  set(vx_let_borrows_count 300)
endif()
add_test(NAME let_borrows
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/let_borrows_test.py $<TARGET_FILE:vx>
          ${vx_let_borrows_count} 1)
# struct_call_borrows: every form of a use or a write of a struct (assignments of a field, of a
# struct field, of the whole struct, a destructuring `let`, a `&mut` call) in an argument after
# the struct is borrowed by the same call, against the rule of spec/types.md §9 (E0305).
add_test(NAME struct_call_borrows
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/struct_call_borrows_test.py $<TARGET_FILE:vx>)
# tuple_values: random programs of nested tuple values with effects, fields of values, helpers
# that return nested tuples, `if`s, destructuring and `==`, against a model of the evaluation
# order (the forms the lowering takes apart, lower/lower_tuples.cpp).
add_test(NAME tuple_values
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/tuple_values_test.py $<TARGET_FILE:vx> 300)

# `vx call` on arrays numpy writes and reads (spec/cli.md §2.2): seed 002's gelu_forward on
# 6,291,456 floats, bit for bit the interpreter's own run. numpy is Debian's python3-numpy
# (tools/setup), so the test runs under Debian's python3, whatever python3 is first on PATH; it
# fails where numpy is missing. The GPU tier's call is in cuda_host_test.
add_test(NAME call
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/call_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance)

# What a kernel author runs beside numpy (issue 38): `vx diff A.npy B.npy` in ulps, `vx call
# --out` of an output with no input file (`--shape`), `vx call --bench`, and `--offload=gpu` with
# no GPU (E0700). Debian's python3 for numpy, as `call`.
add_test(NAME kernel_author
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/kernel_author_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR}/conformance)

# `dbg!` (spec/builtins.md §7): its lines on stderr in pass order, the lint, the emitter's printf.
add_test(NAME dbg
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/dbg_test.py $<TARGET_FILE:vx>)

# A file of `pub fn`s without `main` (spec/cli.md §3): check, --explain, --map, --dump,
# emit-cuda, lower and call take it; run and lower --run refuse it with E0103.
add_test(NAME library_files
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/library_files_test.py $<TARGET_FILE:vx>)

# `vx check --map` and `:map` (spec/cli.md §3.3): who writes each element, computed in Python
# from each program's formula and compared with the text, SVG and JSON maps; colour, usage errors,
# and docs/write_map.svg regenerated (tests/write_map_test.py).
add_test(NAME write_map
  COMMAND ${vx_python} ${CMAKE_CURRENT_LIST_DIR}/write_map_test.py $<TARGET_FILE:vx>
          ${PROJECT_SOURCE_DIR})
