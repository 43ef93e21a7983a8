// Who writes what (spec/cli.md §3.3, `vx check --map`, the REPL's `:map`): for a store in an
// across loop, which pass — the values of the block and lane loops, and of the plain loops inside
// them that the offset uses — writes each element of the tensor, and which elements two passes
// both write. The passes are enumerated and the store's offset evaluated as the program computes
// it (index_dag.hpp's `evaluate`, wrapping as Vx's integers do), the same evaluation as the
// collision note of E6032. The map is made while the kernel rules run (disjointness.cpp) and
// drawn afterwards: as text for a terminal (ANSI colour by block), as SVG, or as JSON data.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "rules/explain.hpp"
#include "support/diagnostics.hpp"

namespace vx::kr {

struct FunctionFacts;
struct Access;

// The most evaluations of an offset one map makes; past it the map is a sample.
inline constexpr int64_t kMapBudget = int64_t{1} << 20;

struct MapCell {
  std::vector<int64_t> index;  // the element's index, one value per dimension
  bool written = false;        // some pass writes it (false: drawn blank)
  bool collides = false;       // two passes that run at the same time both write it
  int64_t block = 0;  // the first writer's block, numbered 0, 1, … in the order the grid counts
  std::string label;  // the first writer: `0:8` (block:lane), see WriteMap::label_form
  std::string block_label;  // its block alone: `0`
  std::string pass;         // the first writer in words: `block 0 lane 8` (the SVG's tooltip)
  std::string collision;    // when it collides: `block 0 lane 8 and block 1 lane 0 both write …`
};

struct WriteMap {
  std::string unmappable;          // why there is no map (a data-dependent index …); empty: a map
  std::vector<int64_t> shape;      // the tensor's dimensions (0: not known before the program runs)
  std::vector<int64_t> window;     // how many of each dimension are drawn, from index 0
  std::string label_form;          // what a cell's label holds: `b:t`, `by,bx:ty,tx`, `b:t/k`
  std::vector<std::string> notes;  // said beside the map: fixed outer loops, the sample …
  bool sample = false;             // not every element, or not every pass, is drawn
  int64_t evaluations = 0, total = 0;  // writes evaluated, of the loops' combinations
  int64_t out_of_bounds = 0;           // evaluated writes out of bounds (the program stops)
  int64_t collided = 0;                // elements that two passes both write (all, not drawn)
  std::string first_collision;         // "block 0 lane 8 and block 1 lane 0 both write element 8"
  std::vector<MapCell> cells;          // the window, row-major
};

// The map of one store (its access as the kernel rules collected it).
WriteMap map_store(const FunctionFacts& facts, const Access& store);

enum class MapFormat { Text, Svg, Json };

// The maps of every store, in the order given: text (with ANSI colour when `color`), one SVG
// picture holding them all, or one JSON note diagnostic per store.
void render_maps(std::ostream& out, const SourceFile& file, const std::vector<StoreExplain>& stores,
                 MapFormat format, bool color);

}  // namespace vx::kr
