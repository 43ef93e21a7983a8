// Exact results as data (spec/cli.md §2.1): `vx run --dump=FILE.json` writes main's bindings at
// its end, every value exactly (floats also as their bits); `vx diff A.json B.json` compares two
// such files, of this vx or of another implementation, element by element, in ulps for floats.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>

#include "check/tir.hpp"
#include "interp/runtime.hpp"

namespace vx::values {

// The bindings of main in scope where it returned (its top-level `let`s among the first `ran`
// statements of its body, interp::RunOptions::at_end; the last of each name; a tensor moved away
// is not there), as the document of spec/values.schema.json.
nlohmann::json dump_main(const tir::Program& program, const tir::Function& main,
                         const interp::Frame& frame, size_t ran);

// `--dump-regions`: the bindings in scope at a `spawn on` region of `fn` just after its `launch`th
// run (from 1): its parameters and the `let`s and loop variables around the region, references
// included (a kernel's `&mut` parameter is what it wrote), as an entry of the document's
// `regions`.
nlohmann::json dump_region(const tir::Program& program, const tir::Function& fn,
                           const tir::Stmt& spawn, int launch, const interp::Frame& frame);

// `vx run --dump-npy=DIR`: each tensor binding of main at its end (the bindings of dump_main) as
// DIR/NAME.npy, NumPy's format 1.0 (little-endian; bf16 as its bits, `<u2`, since NumPy has no
// bf16). Returns an error message, or empty when every file was written.
std::string write_npy(const tir::Program& program, const tir::Function& main,
                      const interp::Frame& frame, size_t ran, const std::string& dir);

// The document as text: one line per binding (a diff of two files reads binding by binding).
std::string to_text(const nlohmann::json& doc);

// The largest document `vx diff` reads (a tensor of 2^25 floats is about 1 GiB of it).
inline constexpr size_t kMaxDocumentBytes = size_t{1} << 30;

// `vx diff A B [--ulp N]`: 0 when every binding of each is in the other with the same type, shape
// and values (floats within `ulps`, NaN equal to NaN), 1 when they differ (the first differing
// elements are printed), 2 when a file cannot be read or is not such a document.
int diff_files(const std::string& a, const std::string& b, int64_t ulps, std::ostream& out,
               std::ostream& err);

}  // namespace vx::values
