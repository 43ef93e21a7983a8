// A function's parameters as they are written (spec/types.md §8, §9). The checker gives each leaf
// of a tuple or struct parameter a local of its own (`t.0`, `p.x`: tir::Function::aggregates);
// here they are one parameter again, with its tuple or struct type, for `vx call`'s arguments and
// the REPL's signatures; and what a function returns, likewise.
#pragma once
#include <string>
#include <vector>

#include "check/tir.hpp"

namespace vx::params {

struct Param {
  std::string name;        // `p`, not `p.x`
  Type type;               // `P`, `(i32, f32)`, `&mut Tensor<…>`
  std::vector<int> slots;  // its locals: one, or a tuple's or struct's leaves in order
};

std::vector<Param> of(const tir::Function& fn);

// The tuple or struct a function returns (its leaves are the first of fn.ret_slots; the
// write-back slots of `&mut` struct parameters follow them), or null: then fn.ret is the type.
const Type* returned_aggregate(const tir::Function& fn);

// `fn(x: i32, p: P) -> i32`, as `:type` and `:vars` show a function.
std::string signature(const tir::Function& fn);

}  // namespace vx::params
