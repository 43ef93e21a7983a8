# tools/smith as another implementation's author and a cluster use it (spec/smith.md §5, §7, §8).
# Included from the top-level CMakeLists.txt after tests/smith.cmake (`vx` is defined).
#
# smith_dist: 20 programs and 100 race mutants against tools/smith/wrong_impl.sh (so that there are
#   findings and a reduction), run by one process, by a Dask cluster the campaign starts
#   (--workers 2, with its progress lines), by a dask-scheduler and two dask-workers on 127.0.0.1
#   (--scheduler), as --shard 0/2 and 1/2 merged by `campaign merge`, and on that cluster again
#   with one worker killed once it has started a shard: every report equals the one process's
#   (the key `run` aside), and the last says which shard ran again. On that cluster, a campaign
#   ended by SIGTERM leaves no task running on the workers. Fails without Debian's
#   python3-distributed (tools/setup installs it).
# smith_reduce: `smith --impl wrong_impl.sh --reduce --results DIR`: progress lines, the finding
#   reduced to at most 8 lines, the commands of findings.md run as written reproduce it, no
#   temporary folder left; and the reducer alone on a program worked out by hand.
# Both test Python code that drives vx, not vx: the sanitizer build leaves them to the release
# build (its vx is 5-10 times slower, and CI's time is counted).
if(NOT VX_SANITIZE)
  foreach(mode dist reduce)
    add_test(NAME smith_${mode}
      COMMAND ${vx_python} ${PROJECT_SOURCE_DIR}/tests/smith_dist_test.py ${mode} $<TARGET_FILE:vx>
              ${CMAKE_BINARY_DIR}/smith/${mode})
  endforeach()
  set_tests_properties(smith_dist smith_reduce PROPERTIES TIMEOUT 240)
endif()
