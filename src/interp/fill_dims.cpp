// The sizes of `Tensor<…>::fill_dims([n, …], v)` when the program runs (spec/types.md §3.1,
// semantics.md §8): each between 1 and 2^31 - 1 and equal to the type's dimension where the type
// fixes one, and their product at most 2^31 - 1; else a runtime error naming the values. The
// memory budget and the allocation itself are TensorNewNode::make's, as for every tensor.
#include "interp/nodes.hpp"

namespace vx::interp {

std::vector<int64_t> run_time_dims(Frame& f, const std::vector<int64_t>& type_dims,
                                   const std::vector<IntOperand>& sizes,
                                   const std::vector<Span>& spans, Span span) {
  constexpr uint64_t kMax = INT32_MAX;
  std::vector<int64_t> dims(sizes.size());
  for (size_t k = 0; k < sizes.size(); ++k) {
    const uint64_t bits = sizes[k].get(f);
    const bool negative = !sizes[k].is_unsigned && static_cast<int64_t>(bits) < 0;
    // The message is made only when a size is refused: a tensor made in a loop pays nothing.
    auto refuse = [&](const std::string& why) {
      runtime_error(spans[k], "the size of dimension " + std::to_string(k) + " is " +
                                  int_operand_text(bits, sizes[k].is_unsigned) + ", but " + why);
    };
    if (negative || bits == 0 || bits > kMax)
      refuse("a size is between 1 and 2^31 - 1 (2147483647)");
    if (type_dims[k] != kUnknownDim && static_cast<int64_t>(bits) != type_dims[k])
      refuse("the tensor's type fixes it at " + std::to_string(type_dims[k]));
    dims[k] = static_cast<int64_t>(bits);
  }
  uint64_t total = 1;  // stops past the limit: eight factors below 2^31 could pass 2^64
  for (int64_t d : dims) {
    total *= static_cast<uint64_t>(d);
    if (total > kMax) break;
  }
  if (total > kMax) {
    std::string shape;
    for (size_t k = 0; k < dims.size(); ++k) shape += (k ? ", " : "") + std::to_string(dims[k]);
    runtime_error(span, "a tensor of [" + shape +
                            "] has more than 2^31 - 1 (2147483647) elements: the product of its "
                            "sizes is too large");
  }
  return dims;
}

}  // namespace vx::interp
