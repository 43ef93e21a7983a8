// The one instantiation of the grammar: Spirit X3 is heavy to compile, so it lives in one file.
#include "parse/grammar_def.hpp"

namespace vx::grammar {

BOOST_SPIRIT_INSTANTIATE(program_type, iterator_type, context_type)

program_type const& program() { return program_rule; }

}  // namespace vx::grammar
