# The program generator of issue 13 (tools/smith/, spec/smith.md). Included from the top-level
# CMakeLists.txt after `vx` and `fake_cuda` (tests/offload.cmake) are defined.
#
# smith_selftest: the race oracle's integer semantics, the comparison and the reducer, against
#   values worked out by hand (no vx).
# smith_programs: a fixed range of generated programs, each on VX_HOST_THREADS=1/2/4,
#   --check-races and `vx lower --to=uir --run`, and every 8th through `--offload=verify` and
#   `--offload=gpu` with the stand-in driver (fails when that tier cannot run: --gpu require);
#   fails on any disagreement, and on a generated program vx refuses.
# smith_races: a fixed range of race mutants through `vx check`, judged by enumeration; fails on
#   an accepted collision (or a mutant refused with another code than its family's: E6032 for the
#   races, stores in a helper included, E0305 for a call given two references to one tensor), and
#   on a collision note of a refusal that names passes the mutant's model says do not get to the
#   access or do not reach the element (tools/smith/vxsmith/notes.py).
# smith_kinds: every kind of the typed program (src/check/tir.hpp's ExprKind and StmtKind) is in
#   the feature table of smith_programs' seeds in every context of device code where the language
#   accepts it, and every built-in in some context (generated only, no run: a few seconds); its
#   tables of what the language refuses (and what the CUDA emitter cannot run yet) are checked
#   against vx, and so is its reading of every fifth program (vx check --dump=typed).
# smith_wrong_impl: smith must fail against an implementation that changes one digit.
# /usr/bin/python3 is Debian's (tools/setup installs python3): no test silently passes without it.
set(VX_SMITH ${PROJECT_SOURCE_DIR}/tools/smith)
# The sanitizer build runs the first 40 of the release build's 200 programs and the first 160 of
# its 600 race mutants (CI in 30 minutes: 93 s and 74 s of test time under ASan with 60 and 250).
set(vx_smith_seeds 200)  # the release build's programs, whose features smith_kinds reads
set(vx_smith_count ${vx_smith_seeds})
set(vx_mutant_count 600)
if(VX_SANITIZE)
  set(vx_smith_count 40)
  set(vx_mutant_count 160)
endif()
add_test(NAME smith_selftest COMMAND ${vx_python} ${VX_SMITH}/selftest.py)
add_test(NAME smith_programs
  COMMAND ${vx_python} ${VX_SMITH}/smith --vx $<TARGET_FILE:vx> --seed 0 --count ${vx_smith_count} --jobs 2
          --gpu require --gpu-every 8 --work ${CMAKE_BINARY_DIR}/smith/programs -q
          --json ${CMAKE_BINARY_DIR}/smith/programs.json
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME smith_races
  COMMAND ${vx_python} ${VX_SMITH}/smith --mutants --vx $<TARGET_FILE:vx> --seed 0 --count ${vx_mutant_count} --jobs 2
          --work ${CMAKE_BINARY_DIR}/smith/races --json ${CMAKE_BINARY_DIR}/smith/races.json
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(smith_programs smith_races PROPERTIES TIMEOUT 400
  ENVIRONMENT "VX_CACHE_DIR=${CMAKE_BINARY_DIR}/smith/kernel_cache")
add_test(NAME smith_kinds
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/smith_kinds_test.py --seed 0 --count ${vx_smith_seeds}
          --vx $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(smith_kinds PROPERTIES TIMEOUT 120)
# `smith --file`: the tiers asked for run (an unknown one is a usage error) and leave nothing
# beside the program.
add_test(NAME smith_file
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/smith_file_test.py ${VX_SMITH}/smith
          $<TARGET_FILE:vx> ${PROJECT_SOURCE_DIR}/conformance/semantics/tuple_field_of_value.vx
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(smith_file PROPERTIES TIMEOUT 300)
# smith and a campaign ended by SIGTERM (to it, to its process group) and Ctrl-C, at several
# moments of the run: status 143 or 130 within 40 s, no process left, nothing in TMPDIR.
add_test(NAME smith_ending
  COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/smith_ending_test.py ${VX_SMITH} $<TARGET_FILE:vx>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(smith_ending PROPERTIES TIMEOUT 600)
# The comparison can fail: an implementation that changes one digit of the output is caught.
add_test(NAME smith_wrong_impl
  COMMAND ${vx_python} ${VX_SMITH}/smith --vx $<TARGET_FILE:vx> --seed 0 --count 10 --jobs 2
          --impl "sh ${VX_SMITH}/wrong_impl.sh $<TARGET_FILE:vx> {file}" --no-uir
          --work ${CMAKE_BINARY_DIR}/smith/wrong_impl
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(smith_wrong_impl PROPERTIES TIMEOUT 120
  PASS_REGULAR_EXPRESSION "programs: 10 in [0-9]+ s; [^\n]*; [1-9][0-9]* with findings")
