# What the sanitizer build (VX_SANITIZE, `tools/test --sanitize`) changes in the tests of the
# other fragments. Included from the top-level CMakeLists.txt after them.
if(NOT VX_SANITIZE)
  return()
endif()
set(vx_asan "detect_leaks=1:detect_stack_use_after_return=0")
# Adds VALUE to the environment of TEST, where that test exists in this build.
function(vx_sanitize_env test value)
  if(TEST ${test})
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "${value}")
  endif()
endfunction()
# cuda_host_test runs kernels on Boost.Context fibers, whose stack switches ASan is not told of
# (Debian's libboost_context is not built with BOOST_USE_ASAN): ASan's per-thread alternate
# signal stack then fails a CHECK when a thread ends ("failed to deallocate"). Without it ASan
# still checks every access; a stack overflow is reported as a plain SIGSEGV.
vx_sanitize_env(cuda_host_test "ASAN_OPTIONS=${vx_asan}:use_sigaltstack=0")
# fuzz_corpus bounds each vx with `ulimit -v`, which ASan's shadow memory (terabytes of address
# space) cannot live under (tests/core.cmake passes --memory-mb 0 here); allocations over
# 4 GiB fail instead (std::bad_alloc: vx's "out of memory").
vx_sanitize_env(fuzz_corpus "ASAN_OPTIONS=${vx_asan}:max_allocation_size_mb=4096:allocator_may_return_null=1")
# offload_test: NVRTC compiles the corpus for one architecture here; the release build compiles
# it for both (sm_80 and sm_90).
vx_sanitize_env(offload_test "VX_OFFLOAD_TEST_ARCHS=sm_90")
# host_threads_corpus takes every second program under ASan, and cuda_host_test's runs through the
# stand-in driver every fourth (and the programs that must verify); the release build runs them
# all (CI in 30 minutes: 78 s and 165 s under ASan, the driver's runs two thirds of the latter).
vx_sanitize_env(host_threads_corpus "VX_CORPUS_EVERY=2")
vx_sanitize_env(cuda_host_test "VX_CORPUS_EVERY=4")
# conformance_wrong_impl's JSON and JUnit report of the whole corpus covers a quarter of it (123 s
# under ASan with all of it).
vx_sanitize_env(conformance_wrong_impl "VX_WRONG_IMPL_SUBSET=1")
# conformance_implementer's run of vx --error-format=json as another implementation covers a
# part of the corpus with every kind of expectation (refusals, runtime errors, warnings, .uir).
vx_sanitize_env(conformance_implementer "VX_IMPLEMENTER_SUBSET=1")
# repl_cut_inputs feeds every sixth program's cut inputs through the protocol.
vx_sanitize_env(repl_cut_inputs "VX_CORPUS_EVERY=6")
