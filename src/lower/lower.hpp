// The lowering step (pipeline/pipeline.hpp, `--dump=lowered`): rewrites the checker's typed
// program into the program that the lints, the kernel rules and every back end read. Each `match`
// becomes a block expression (`from_match`) of the scrutinee's locals and a chain of `if`s, one
// per arm a value reaches: an arm's test is its patterns' comparisons of those locals, then its
// guard; the arm that completes the cover of the type is the final `else`. `==` and `!=` of two
// tuples, tuples printed with `{:?}`, assert_eq! of two tuples, a field of a value (a scalar
// field's local for a local's tuple, read or assigned; a tuple field's into locals) and a call's
// tuple arguments become their scalars' code; a call that returns a tuple or borrows a struct
// `&mut` gets its out locals and copies the struct's fields back; a tuple value stored into locals
// (a call's, a `let`'s, a destructuring `let`'s, a `match`'s scrutinee's, an assignment's, a
// `return`'s, a `break`'s) becomes an assignment a scalar, and each branch of an `if`, `match` or
// block whose value is a tuple assigns its scalars to the locals the checker named, which the
// lowering declares with zeros first when the statement declares them (lower_tuples.hpp). A
// function that borrows a struct `&mut` assigns its fields to its return slots before each `return`
// and at the end of its body (lower_write_backs.hpp). The rest of tuples and structs is not lowered
// here yet: the checker gives each tuple or struct local a local per scalar, makes a struct
// reference another name of the struct's locals and a field of a value without effects that holds a
// tensor or an array its scalars, as it types them (check/check_tuple.cpp,
// check/check_struct*.cpp). Needs a typed program the checker accepted (check/checker.hpp); lowers
// it in place, once.
#pragma once
#include "check/tir.hpp"

namespace vx::lower {

void lower_program(tir::Program& program);

}  // namespace vx::lower
