// `--dump=typed` (spec/cli.md §4): the typed program (check/tir.hpp) printed as Vx-like text —
// every local with its slot (`x%3`), every literal with its type (`1i64`), every composite
// expression with its type (`(a + b : f32)`), const folded, names resolved, and the offload
// marks (check/tir_marks.hpp), when given, where they stand. Reads the program only; the layout
// is for people, not parsers.
#pragma once
#include <ostream>

#include "check/tir.hpp"
#include "check/tir_marks.hpp"

namespace vx::tir {

void print_program(std::ostream& out, const Program& program, const Marks* marks = nullptr);

}  // namespace vx::tir
