// Unit tests of the kernel rules (spec/kernel-rules.md): the mixed-radix prover on seed 001's
// GEMM table and check-yourself cases, hash-consing, machine files, and whole programs.
#include "rules/kernel_rules.hpp"

#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "check/checker.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"
#include "rules/call_accesses.hpp"
#include "rules/index_dag.hpp"
#include "rules/loop_nest.hpp"
#include "rules/machine.hpp"
#include "rules/mixed_radix.hpp"

using namespace vx;
using namespace vx::kr;

namespace {

// A set of loops for the prover: each leaf has a range [0, n - 1]; one is the parallel loop.
struct Loops {
  IndexDag dag;
  std::map<const IxNode*, std::pair<int64_t, bool>> info;  // leaf -> (passes, parallel)
  int keys[16] = {};
  int used = 0;
  const IxNode* loop(const char* name, int64_t n, bool parallel = false) {
    const IxNode* l = dag.loop(&keys[used++], name);
    info[l] = {n, parallel};
    return l;
  }
  void set_parallel(const IxNode* p) {
    for (auto& [leaf, v] : info) v.second = leaf == p;
  }
  RadixProof prove(const IxNode* offset) {
    return prove_unique(offset, [&](const IxNode* leaf) {
      LeafInfo li;
      auto it = info.find(leaf);
      if (it == info.end()) return li;
      li.kind = LeafInfo::Digit;
      li.lo = 0;
      li.hi = it->second.first - 1;
      li.parallel = it->second.second;
      return li;
    });
  }
  const IxNode* c(int64_t v) { return dag.constant(v); }
  const IxNode* add(const IxNode* a, const IxNode* b) { return dag.binary(IxOp::Add, a, b); }
  const IxNode* mul(const IxNode* a, const IxNode* b) { return dag.binary(IxOp::Mul, a, b); }
  const IxNode* div(const IxNode* a, int64_t k) { return dag.binary(IxOp::Div, a, c(k)); }
  const IxNode* mod(const IxNode* a, int64_t k) { return dag.binary(IxOp::Rem, a, c(k)); }
};

const Digit& digit(const RadixProof& p, const std::string& text) {
  for (const Digit& d : p.digits)
    if (d.text() == text) return d;
  FAIL("no digit " << text);
  return p.digits.front();
}

// Seed 000's first kernel (book_gpu_blocks_and_lanes.vx): proved, y * 300 + x.
const char* const kBookKernel = R"(fn main() {
    let mut grid = transfer(Tensor<f32, [64, 300]>::fill(1.0), Memory::HBM);
    spawn on(Topology::Device) {
        for y in 0..64 across blocks {
            for x in 0..300 across lanes(256) {
                grid[y][x] = grid[y][x] * 2.0 + (y as f32);
            }
        }
    }
})";

// Checks a program with the kernel rules; returns the codes and messages of the errors.
std::vector<std::string> check_source(const std::string& src, Machine m = default_machine(),
                                      std::vector<StoreExplain>* explain = nullptr) {
  pipeline::Options front;
  front.machine = &m;
  front.explain = explain != nullptr;
  pipeline::Compiled c = pipeline::compile(std::make_shared<SourceFile>("test.vx", src), front);
  REQUIRE(c.parsed);
  REQUIRE(c.program);
  if (explain) *explain = std::move(c.explained);
  std::vector<std::string> out;
  for (const auto& d : c.diags->list()) {
    if (d.severity == Severity::Warning) continue;  // the errors; warnings are tested on their own
    std::string s = d.code + ": " + d.message;
    for (const auto& n : d.notes) s += " | " + n;
    for (const auto& h : d.helps) s += " | help: " + h;
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("the lesson's GEMM table: (16 by + ty) 512 + 16 bx + tx") {
  Loops L;
  const IxNode* g = L.loop("g", 1024, true);
  const IxNode* t = L.loop("t", 256);
  const IxNode* by = L.div(g, 32);
  const IxNode* bx = L.mod(g, 32);
  const IxNode* ty = L.div(t, 16);
  const IxNode* tx = L.mod(t, 16);
  const IxNode* off =
      L.add(L.add(L.mul(L.add(L.mul(L.c(16), by), ty), L.c(512)), L.mul(L.c(16), bx)), tx);
  RadixProof p = L.prove(off);  // over the whole block loop: g parallel, t a digit
  REQUIRE(p.proved());
  REQUIRE(p.digits.size() == 4);
  // The table, largest coefficient first.
  CHECK(p.digits[0].text() == "g / 32");
  CHECK(p.digits[0].coefficient == 8192);
  CHECK(*p.digits[0].largest == 31);
  CHECK(*p.digits[0].adds == 253952);
  CHECK(p.digits[1].text() == "t / 16");
  CHECK(p.digits[1].coefficient == 512);
  CHECK(*p.digits[1].largest == 15);
  CHECK(*p.digits[1].adds == 7680);
  CHECK(p.digits[2].text() == "g % 32");
  CHECK(p.digits[2].coefficient == 16);
  CHECK(*p.digits[2].largest == 31);
  CHECK(*p.digits[2].adds == 496);
  CHECK(p.digits[3].text() == "t % 16");
  CHECK(p.digits[3].coefficient == 1);
  CHECK(*p.digits[3].largest == 15);
  CHECK(*p.digits[3].adds == 15);
  // The three comparisons.
  REQUIRE(p.comparisons.size() == 3);
  CHECK(p.comparisons[0].coefficient == 8192);
  CHECK(*p.comparisons[0].smaller == 8191);
  CHECK(p.comparisons[0].text == "8192 > 7680 + 496 + 15 = 8191");
  CHECK(*p.comparisons[1].smaller == 511);
  CHECK(p.comparisons[1].text == "512 > 496 + 15 = 511");
  CHECK(*p.comparisons[2].smaller == 15);
  CHECK(p.comparisons[2].text == "16 > 15");
  for (const auto& c : p.comparisons) CHECK(c.holds);
  CHECK(p.determined);  // g / 32 and g % 32 together determine g
  // Once per local loop, with the block fixed: the digits of t alone.
  L.set_parallel(t);
  RadixProof q = L.prove(off);
  CHECK(q.proved());
}

TEST_CASE("check yourself: coefficient 8 for blocks of 16 lanes collides") {
  Loops L;
  const IxNode* b = L.loop("b", 8, true);
  const IxNode* t = L.loop("t", 16);
  const IxNode* off = L.add(L.mul(b, L.c(8)), t);
  RadixProof p = L.prove(off);
  CHECK(p.failure == RadixProof::Comparison);
  REQUIRE(p.failed == 0);
  CHECK(p.comparisons[0].coefficient == 8);
  CHECK(*p.comparisons[0].smaller == 15);  // the coefficient of b must beat 1 * 15
  auto c = find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}},
                          [](const IxNode*) { return std::optional<int64_t>(); });
  REQUIRE(c);
  CHECK(c->first == std::vector<int64_t>{0, 8});   // block 0 lane 8
  CHECK(c->second == std::vector<int64_t>{1, 0});  // block 1 lane 0
  CHECK(c->element == 8);
  // The example passes are in bounds: in a tensor of 12 elements the same; in one of 8, every
  // colliding pair has a pass out of bounds (element 8 and up), which stops the program first.
  auto fixed = [](const IxNode*) { return std::optional<int64_t>(); };
  auto in12 =
      find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {{off, 12}});
  REQUIRE(in12);
  CHECK(in12->element == 8);
  CHECK(!find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {{off, 8}}));
  // A pass the guards keep out is not one of the two: with `if b != 0` the first pair is block 1
  // lane 8 and block 2 lane 0 (element 16); with `if t < 8` no two passes meet (8 > 7); a guard
  // that cannot be evaluated gives no pair. With `.step_by(2)` over t (0, 2, …, 14), blocks 0 and
  // 1 still meet: lane 8 and lane 0.
  const Guard b_not_0{Guard::Ne, b, L.c(0), true, {}};
  auto guarded =
      find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {}, {}, {b_not_0});
  REQUIRE(guarded);
  CHECK(guarded->first == std::vector<int64_t>{1, 8});
  CHECK(guarded->second == std::vector<int64_t>{2, 0});
  CHECK(guarded->element == 16);
  CHECK(!find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {}, {},
                        {{Guard::Lt, t, L.c(8), true, {}}}));
  const IxNode* unknown = L.dag.var(&L, "n");
  CHECK(!find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {}, {},
                        {{Guard::Eq, unknown, L.c(0), true, {}}}));
  // `if b == 3 || b == 4` (any_of): blocks 3 and 4 meet at element 32 (lanes 8 and 0); with
  // `if b == 3 || b == 5` no two blocks that get there meet; with `if n == 0 || b == 3` block 3
  // alone is known to get there, and the others cannot be evaluated: no pair.
  auto either = [&](const IxNode* x, int64_t v, const IxNode* y, int64_t w) {
    Guard g;
    g.any_of = {{{Guard::Eq, x, L.c(v), true, {}}}, {{Guard::Eq, y, L.c(w), true, {}}}};
    return std::vector<Guard>{g};
  };
  auto three_or_four = find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {},
                                      {}, either(b, 3, b, 4));
  REQUIRE(three_or_four);
  CHECK(three_or_four->first == std::vector<int64_t>{3, 8});
  CHECK(three_or_four->second == std::vector<int64_t>{4, 0});
  CHECK(three_or_four->element == 32);
  CHECK(!find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {}, {},
                        either(b, 3, b, 5)));
  CHECK(!find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false}}, fixed, {}, {},
                        either(unknown, 0, b, 3)));
  auto stepped = find_collision(off, nullptr, {{b, 0, 7, true}, {t, 0, 15, false, 2}}, fixed);
  REQUIRE(stepped);
  CHECK(stepped->first == std::vector<int64_t>{0, 8});
  CHECK(stepped->second == std::vector<int64_t>{1, 0});
  // Coefficient 16 beats 15.
  RadixProof ok = L.prove(L.add(L.mul(b, L.c(16)), t));
  CHECK(ok.proved());
}

TEST_CASE("check yourself: b + 4t is valid; the rule does not care which digit is the block") {
  Loops L;
  const IxNode* b = L.loop("b", 4, true);
  const IxNode* t = L.loop("t", 8);
  const IxNode* off = L.add(b, L.mul(L.c(4), t));
  RadixProof p = L.prove(off);
  CHECK(p.proved());
  CHECK(digit(p, "t").coefficient == 4);
  CHECK(*digit(p, "b").adds == 3);
  L.set_parallel(t);
  CHECK(L.prove(off).proved());
}

TEST_CASE("check yourself: t / 4 in a local loop of 64 has largest value 15, t % 4 has 3") {
  Loops L;
  const IxNode* t = L.loop("t", 64, true);
  RadixProof p = L.prove(L.add(L.mul(L.mod(t, 4), L.c(16)), L.div(t, 4)));
  CHECK(p.proved());
  CHECK(*digit(p, "t / 4").largest == 15);
  CHECK(*digit(p, "t % 4").largest == 3);
  // t / 4 alone does not determine t.
  RadixProof q = L.prove(L.div(t, 4));
  CHECK(q.failure == RadixProof::NotDetermined);
  // t % 64 does: k is at least the range.
  CHECK(L.prove(L.mod(t, 64)).proved());
}

TEST_CASE("check yourself: sh[t] and sh[t + 1] have the same digits but are different nodes") {
  Loops L;
  const IxNode* t = L.loop("t", 16, true);
  const IxNode* store = t;
  const IxNode* load = L.add(t, L.c(1));
  CHECK(L.prove(store).proved());
  CHECK(L.prove(load).proved());    // the digits alone cannot see the race ...
  CHECK(store != load);             // ... the same-expression rule does: a pointer comparison
  CHECK(L.add(t, L.c(1)) == load);  // hash-consed
  auto c = find_collision(store, load, {{t, 0, 15, true}},
                          [](const IxNode*) { return std::optional<int64_t>(); });
  REQUIRE(c);
  CHECK(c->second_reads);
  CHECK(c->element == 1);  // lane 1 writes element 1, lane 0 reads it
}

TEST_CASE("the prover refuses what is not a sum of digits") {
  Loops L;
  const IxNode* b = L.loop("b", 8, true);
  const IxNode* l = L.loop("l", 8);
  CHECK(L.prove(L.mul(b, l)).failure == RadixProof::NotDigits);
  CHECK(L.prove(L.div(L.add(b, l), 2)).failure == RadixProof::NotDigits);
  CHECK(L.prove(l).failure == RadixProof::NotDetermined);  // an index must fix b
  // A constant part is an offset, not a digit.
  RadixProof p = L.prove(L.add(L.add(L.mul(b, L.c(8)), l), L.c(100)));
  CHECK(p.proved());
  CHECK(p.constant_part == "100");
  // A negative coefficient counts by its size.
  CHECK(L.prove(L.dag.binary(IxOp::Sub, L.c(63), L.add(L.mul(b, L.c(8)), l))).proved());
}

TEST_CASE("machine files: the default is fleet/h100-sxm.vx, and every file reads") {
  Machine h100;
  std::string err;
  REQUIRE_MESSAGE(load_machine("fleet/h100-sxm.vx", h100, err), err);
  Machine d = default_machine();
  CHECK(h100.device == d.device);
  CHECK(h100.lanes_per_block == d.lanes_per_block);
  CHECK(h100.smem_per_block == d.smem_per_block);
  CHECK(h100.copy_engine == d.copy_engine);
  CHECK(h100.compute_capability == d.compute_capability);
  for (const char* f : {"fleet/h200-sxm.vx", "fleet/a100-sxm4-80gb.vx", "fleet/l4.vx",
                        "fleet/apple-m3-max.vx", "fleet/host.vx"}) {
    Machine m;
    CHECK_MESSAGE(load_machine(f, m, err), err);
  }
  Machine apple;
  REQUIRE(load_machine("fleet/apple-m3-max.vx", apple, err));
  CHECK(apple.device == DeviceKind::Apple);
  CHECK(apple.atomic_relaxed_only);
  CHECK(apple.has_atomic(Scalar::U32));
  CHECK(!apple.has_atomic(Scalar::I64));
  Machine host;
  REQUIRE(load_machine("fleet/host.vx", host, err));
  CHECK(!host.has_blocks_and_lanes());
}

TEST_CASE("whole programs: the seed's messages and the explain table") {
  const char* fixed_row = R"(fn main() {
    let mut grid = transfer(Tensor<f32, [64, 300]>::fill(1.0), Memory::HBM);
    spawn on(Topology::Device) {
        for y in 0..64 across blocks {
            for x in 0..300 across lanes(256) {
                grid[0][x] = grid[0][x] * 2.0 + (y as f32);
            }
        }
    }
})";
  auto errs = check_source(fixed_row);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].find("E6032: two passes of this block loop may write the same element of "
                     "`grid`: an index of the write must fix `y`") == 0);
  const char* coef8 = R"(fn main() {
    let mut out = transfer(Tensor<i32, [128]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..8 across blocks {
            for t in 0..16 across lanes {
                out[b * 8 + t] = t;
            }
        }
    }
})";
  errs = check_source(coef8);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].find("block 0 lane 8 and block 1 lane 0 both write element 8") !=
        std::string::npos);
  const char* good = kBookKernel;
  std::vector<StoreExplain> ex;
  CHECK(check_source(good, default_machine(), &ex).empty());
  REQUIRE(ex.size() == 1);
  CHECK(ex[0].offset == "y * 300 + x");
  REQUIRE(ex[0].checks.size() == 2);
  CHECK(ex[0].checks[0].level == "block");
  CHECK(ex[0].checks[0].proof.comparisons.at(0).text == "300 > 299");
  CHECK(ex[0].checks[1].level == "lane");
  auto json = *explain_diagnostic(ex[0]).data;
  CHECK(json["checks"][0]["proof"]["digits"][0]["coefficient"] == 300);
  // On the host machine the same program is refused: no blocks and lanes.
  Machine host;
  std::string err;
  REQUIRE(load_machine("fleet/host.vx", host, err));
  CHECK(!check_source(good, host).empty());
}

TEST_CASE("the explain tables outlive the index graph they were proved on") {
  // Regression: Digit::text read the loop's name through a pointer into the graph, which is
  // freed when check_kernel_rules returns (a heap-use-after-free under ASan).
  const char* good = kBookKernel;
  std::vector<StoreExplain> ex;
  CHECK(check_source(good, default_machine(), &ex).empty());
  REQUIRE(ex.size() == 1);
  const RadixProof& p = ex[0].checks.at(0).proof;
  REQUIRE(p.digits.size() == 2);
  CHECK(p.digits[0].text() == "y");
  CHECK(p.digits[1].text() == "x");
  CHECK((*explain_diagnostic(ex[0]).data)["checks"][0]["proof"]["digits"][1]["loop"] == "x");
}

TEST_CASE("an offset whose arithmetic wraps in its type is refused, with a colliding pair") {
  // 4 * 2^30 is 0 in i32: blocks 0 and 4 write element 0 (issue 13's finding).
  const char* wraps = R"(fn main() {
    let mut out = transfer(Tensor<i32, [8]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..8 across blocks {
            for l in 0..8 across lanes {
                if b % 4 == 0 { out[b * 1073741824 + l] = b; }
            }
        }
    }
})";
  auto errs = check_source(wraps);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].find("E6032: two passes of this block loop may write the same element of `out`: "
                     "the index may wrap around: `b * 1073741824` computes in i32, whose values "
                     "are -2147483648 to 2147483647, and may be as large as 7516192768") == 0);
  CHECK(errs[0].find("block 0 lane 0 and block 4 lane 0 both write element 0") !=
        std::string::npos);
}

TEST_CASE("find_wrap and evaluate use each operation's type") {
  IndexDag dag;
  int key = 0;
  IntType u8{8, false}, i32{32, true};
  const IxNode* l = dag.loop(&key, "l", u8);
  const IxNode* twice = dag.binary(IxOp::Mul, l, dag.constant(2), u8);
  auto range = [&](const IxNode*) { return std::optional<std::pair<int64_t, int64_t>>({0, 255}); };
  auto w = find_wrap(twice, range);
  REQUIRE(w);
  CHECK(w->node == twice);
  CHECK(describe_wrap(*w) ==
        "`l * 2` computes in u8, whose values are 0 to 255, and may be as "
        "large as 510");
  // 128 * 2 wraps to 0 in u8, as the program computes it.
  auto at = [](int64_t v) { return [v](const IxNode*) { return std::optional<int64_t>(v); }; };
  CHECK(evaluate(twice, at(128)) == 0);
  CHECK(evaluate(twice, at(127)) == 254);
  // The same expression in i32 is another node, and does not wrap over 0 ..= 255.
  const IxNode* l32 = dag.loop(&key + 1, "m", i32);
  CHECK(!find_wrap(dag.binary(IxOp::Mul, l32, dag.constant(2), i32), range));
  // Constants fold only when the result fits: 200u8 + 100u8 stays a node, which wraps, but is
  // the same in every pass, so harmless; so is a fixed value added to the index (a bijection).
  const IxNode* sum = dag.binary(IxOp::Add, dag.constant(200), dag.constant(100), u8);
  CHECK(!sum->is_const());
  CHECK(!find_wrap(sum, range));
  const IxNode* shifted = dag.binary(IxOp::Add, l, dag.constant(200), u8);
  CHECK(!find_wrap(shifted, range));
  CHECK(find_wrap(dag.binary(IxOp::Mul, shifted, dag.constant(2), u8), range)->node == shifted);
  CHECK(dag.binary(IxOp::Add, dag.constant(200), dag.constant(100), i32)->value == 300);
  // value_range lets an operation wrap: its value is then anywhere in its type.
  auto vr = value_range(twice, range);
  CHECK(vr.first == 0);
  CHECK(vr.second == 255);
  // Extreme constants: no overflow in the checker (UBSan), a refusal instead.
  const IxNode* big = dag.binary(IxOp::Mul, l32, dag.constant(INT64_MIN), IntType{64, true});
  CHECK(find_wrap(big, range));
  CHECK(!evaluate(dag.neg(dag.constant(INT64_MIN)), at(0)));
}

// spec/kernel-rules.md §4 step 1: `x | y` and `x ^ y` are `x + y` where x is a multiple of 2^k
// and y is in 0 ..= 2^k - 1. Property, exhaustive over two 8-bit leaves: on 300 expressions of
// `+ - *` and negation built from a leaf p and constants (powers of two among them), every value
// x takes, wrapping in its type, is a multiple of 2^low_zero_bits(x); where bits_index reads
// `x | q` or `x ^ q` as a sum (q in a range of its own), the sum is what the operator computes,
// for every p and q. The model is the C++ operators on the wrapped values.
TEST_CASE("`|` and `^` of bits that do not meet are a sum, exhaustively over 8-bit leaves") {
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  auto next = [&](uint64_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
  };
  int read = 0;
  for (IntType t : {IntType{8, true}, IntType{8, false}}) {
    for (int round = 0; round < 150; ++round) {
      IndexDag dag;
      int keys[2] = {};
      const IxNode* p = dag.loop(&keys[0], "p", t);
      const IxNode* q = dag.loop(&keys[1], "q", t);
      auto constant = [&]() -> const IxNode* {
        const int64_t picks[] = {0, 1, 3, 6, 12, 40, 64, 96, 127, -128, -64, -8};
        const int64_t c = next(2) ? int64_t{1} << next(8) : picks[next(12)];
        return dag.constant(t.is_signed ? c : (c & 255));
      };
      std::function<const IxNode*(int)> grow = [&](int depth) -> const IxNode* {
        if (depth == 0) return next(3) ? p : constant();
        switch (next(5)) {
          case 0:
            return dag.binary(IxOp::Add, grow(depth - 1), grow(depth - 1), t);
          case 1:
            return dag.binary(IxOp::Sub, grow(depth - 1), grow(depth - 1), t);
          case 2:
            return dag.neg(grow(depth - 1), t);
          default:
            return dag.binary(IxOp::Mul, grow(depth - 1), constant(), t);
        }
      };
      const IxNode* x = grow(1 + static_cast<int>(next(3)));
      const int k = low_zero_bits(x);
      const int64_t qhi = static_cast<int64_t>(next(130));
      auto leaf = [&](const IxNode* n) -> std::optional<std::pair<int64_t, int64_t>> {
        if (n == q) return std::pair<int64_t, int64_t>{0, qhi};
        return std::nullopt;
      };
      auto range = [&](const IxNode* n) { return value_range(n, leaf); };
      const IxNode* as_or = bits_index(dag, tir::BinOp::BitOr, x, q, t, range);
      const IxNode* as_xor = bits_index(dag, tir::BinOp::BitXor, q, x, t, range);
      CHECK((as_or != nullptr) == (as_xor != nullptr));
      const int lo = t.is_signed ? -128 : 0;
      for (int pv = lo; pv < lo + 256; ++pv) {
        auto at_p = [&](const IxNode*) { return std::optional<int64_t>(pv); };
        const std::optional<int64_t> xv = evaluate(x, at_p);
        REQUIRE(xv);
        if (k < 63 && (*xv & ((int64_t{1} << k) - 1)) != 0)
          FAIL_CHECK(pv << ": " << *xv << " is not a multiple of 2^" << k);
        if (!as_or) continue;
        for (int64_t qv = 0; qv <= qhi; ++qv) {
          auto at = [&](const IxNode* n) { return std::optional<int64_t>(n == q ? qv : pv); };
          const std::optional<int64_t> want_or = wrap_to(*xv | qv, t);
          const std::optional<int64_t> want_xor = wrap_to(*xv ^ qv, t);
          if (evaluate(as_or, at) != want_or || evaluate(as_xor, at) != want_xor)
            FAIL_CHECK("p = " << pv << ", q = " << qv << ": " << *xv << " | " << qv);
        }
      }
      read += as_or != nullptr;
    }
  }
  // Both ways occur: the reading is not vacuous, nor always refused.
  CHECK(read >= 30);
  CHECK(read <= 270);
}

TEST_CASE("a graph with shared sub-expressions prints each once, by name, and is not expanded") {
  Loops L;
  const IxNode* t = L.loop("t", 64, true);
  const IxNode* e = t;
  for (int i = 0; i < 30; ++i) e = L.mul(e, e);  // 2^30 multiplications written out
  CHECK(e->size == (uint64_t{1} << 31) - 1);
  std::string text = to_string(e);
  CHECK(text.rfind("e29 * e29, where e1 = t * t, e2 = e1 * e1, e3 = e2 * e2", 0) == 0);
  CHECK(text.size() < 1000);
  RadixProof p = L.prove(e);
  CHECK(p.failure == RadixProof::NotDigits);
  CHECK(p.why ==
        "the index has more than 4096 operations when written out, more than the rule "
        "expands");
  // A small offset prints plainly.
  CHECK(to_string(L.add(L.mul(t, L.c(4)), L.c(1))) == "t * 4 + 1");
  // Past the depth bound, an operation is one opaque leaf: every walk stays bounded.
  const IxNode* d = t;
  for (int i = 0; i < 2000; ++i) d = L.add(d, L.c(1));
  CHECK(d->depth <= kMaxIndexDepth + 1);
  CHECK(L.prove(d).why.find("more than 512 deep") != std::string::npos);
}

TEST_CASE("loop bounds at the ends of i64 do not overflow the checker") {
  const char* extreme = R"(fn main() {
    let mut s = 0i64;
    for i in -9223372036854775808i64..-9223372036854775807i64 { s = s + 1i64; }
    for j in 9223372036854775806i64..=9223372036854775807i64 { s = s + 1i64; }
    println!("{}", s);
})";
  CHECK(check_source(extreme).empty());
}

#include "interp/race_check.hpp"

TEST_CASE("the race recorder: collisions between passes, none within a pass or across phases") {
  using vx::interp::PassLevel;
  vx::interp::RaceRecorder r;
  int block_loop = 0, lane_loop = 0, buf = 0;
  r.enter_region();
  // out[b * 8 + t] with b in 0..2, t in 0..16: block 0 lane 8 and block 1 lane 0 collide.
  const vx::interp::RaceReport* rep = nullptr;
  for (int64_t b = 0; b < 2 && !rep; ++b) {
    r.enter_pass(&block_loop, PassLevel::Block, b);
    for (int64_t t = 0; t < 16 && !rep; ++t) {
      r.enter_pass(&lane_loop, PassLevel::Lane, t);
      rep = r.access(&buf, "out", b * 8 + t, true, false, {});
      r.leave_pass(&lane_loop);
    }
    r.end_phase();
    r.leave_pass(&block_loop);
  }
  REQUIRE(rep);
  CHECK(rep->message() == "block 0 lane 8 and block 1 lane 0 both write element 8 of `out`");
  // sh[t] written in one lane loop and sh[t + 1] read in the next: no race.
  vx::interp::RaceRecorder q;
  q.enter_region();
  q.enter_pass(&block_loop, PassLevel::Block, 0);
  for (int64_t t = 0; t < 16; ++t) {
    q.enter_pass(&lane_loop, PassLevel::Lane, t);
    CHECK(!q.access(&buf, "sh", t, true, false, {}));
    q.leave_pass(&lane_loop);
  }
  q.end_phase();
  for (int64_t t = 0; t < 15; ++t) {
    q.enter_pass(&lane_loop, PassLevel::Lane, t);
    CHECK(!q.access(&buf, "sh", t + 1, false, false, {}));
    q.leave_pass(&lane_loop);
  }
  // ... but in the same phase it is one.
  vx::interp::RaceRecorder s;
  s.enter_region();
  s.enter_pass(&block_loop, PassLevel::Block, 0);
  const vx::interp::RaceReport* rr = nullptr;
  for (int64_t t = 0; t < 16 && !rr; ++t) {
    s.enter_pass(&lane_loop, PassLevel::Lane, t);
    rr = s.access(&buf, "sh", t, true, false, {});
    if (!rr) rr = s.access(&buf, "sh", t + 1, false, false, {});
    s.leave_pass(&lane_loop);
  }
  REQUIRE(rr);
  CHECK(rr->message() == "block 0 lane 0 reads element 1 of `sh` and block 0 lane 1 writes it");
}

// Messages that must be true (issue 19): the example pair of a collision can happen, a collision
// of two writes is called one, and two accesses that print alike are told apart.
TEST_CASE("a collision's example passes are in bounds, or there is no example") {
  // Block 0 writes elements 0 to 3; every other pass is out of bounds and stops the program.
  // (0, 4) and (1, 0) both reach offset 4, past the end: no example may name them.
  const char* past_end = R"(fn main() {
    let mut out = transfer(Tensor<i32, [4]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            for t in 0..8 across lanes(8) {
                out[b * 4 + t] = 1;
            }
        }
    }
})";
  auto errs = check_source(past_end);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].find("the coefficient 4 of `b` is not greater than 7") != std::string::npos);
  CHECK(errs[0].find("both write") == std::string::npos);
  // In 12 elements, (0, 4) and (1, 0) both write element 4.
  std::string fits = past_end;
  fits.replace(fits.find("[4]"), 3, "[12]");
  errs = check_source(fits);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].find("block 0 lane 4 and block 1 lane 0 both write element 4") !=
        std::string::npos);
}

TEST_CASE("two writes at different indices collide as writes, not as a write and a read") {
  const char* two_writes = R"(fn main() {
    let mut out = transfer(Tensor<i32, [32]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            for t in 0..16 across lanes(16) {
                out[t] = 1;
                out[t + 1] = 2;
            }
        }
    }
})";
  auto errs = check_source(two_writes);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].find("E6032: two passes of this lane loop may write the same element of `out`: "
                     "every access to it in the loop must use the same index, but `out[t + 1]` "
                     "and `out[t]` differ") == 0);
  CHECK(errs[0].find("lane 1 and lane 0 both write element 1") != std::string::npos);
  CHECK(errs[0].find("reads it") == std::string::npos);
}

TEST_CASE("two accesses that print alike are named by their lines") {
  // The second `l` goes past the first's 0..3: block 0 writes element 4, as block 1 does.
  const char* same_name = R"(fn main() {
    let mut out = transfer(Tensor<f32, [1024]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..4 across blocks {
            for l in 0..4 across lanes(4) {
                out[b * 4 + l] = 1.0;
            }
            for l in 0..256 across lanes(256) {
                out[b * 4 + l] = out[b * 4 + l] + 1.0;
            }
        }
    }
})";
  auto errs = check_source(same_name);
  REQUIRE(!errs.empty());
  CHECK(errs[0].find("E6032: two passes of this block loop may write the same element of `out`: "
                     "every access to it in the loop must use the same index, but `out[b * 4 + l]` "
                     "(line 9) and `out[b * 4 + l]` (line 6) differ") == 0);
  CHECK(errs[0].find("the two are written alike, but a name in them stands for a different "
                     "variable in each") != std::string::npos);
}

TEST_CASE("loop nest: one validator for Vx and .uir, with the machine's limits") {
  Machine m = default_machine();
  m.lanes_per_block = 512;
  LoopNest nest(m);
  NestLoop block;  // a block loop directly in the region
  NestVerdict v = nest.check(block);
  CHECK_FALSE(v);
  nest.enter(block, v);
  CHECK(nest.in_block_code());

  NestLoop lanes;
  lanes.level = tir::Across::Lanes;
  lanes.parent = NestParent::BlockLoop;
  lanes.lanes = 600;
  v = nest.check(lanes);
  CHECK(v.fault == NestFault::TooManyLanes);
  CHECK(v.rule == KernelRule::LaneCount);
  CHECK(v.limit == 512);  // the machine's, not the lesson's 1024

  lanes.lanes = 64;
  v = nest.check(lanes);
  REQUIRE_FALSE(v);
  nest.enter(lanes, v);
  CHECK_FALSE(nest.in_block_code());
  // A lane loop that is not directly in the lane loop around it is refused, and its lanes do
  // not count towards the loops inside it.
  NestLoop misplaced = lanes;
  misplaced.parent = NestParent::Other;
  misplaced.lanes = 4;
  v = nest.check(misplaced);
  CHECK(v.fault == NestFault::LaneNotDirect);
  nest.enter(misplaced, v);
  NestLoop inner = lanes;
  inner.parent = NestParent::LaneLoop;
  inner.lanes = 16;
  v = nest.check(inner);
  CHECK(v.fault == NestFault::TooManyLanesInNest);
  CHECK(v.asked == 64 * 16);
  nest.leave();
  nest.leave();

  NestLoop block_in_lanes;
  nest.enter(lanes, nest.check(lanes));
  CHECK(nest.check(block_in_lanes).fault == NestFault::BlockInLaneLoop);
  nest.leave();
  nest.leave();
  CHECK(nest.block_loops() == 0);
  CHECK(nest.lane_loops() == 0);

  Machine host = default_machine();
  host.lanes_per_block = 0;
  CHECK(LoopNest(host).check(block).fault == NestFault::MachineWithoutLanes);
}

TEST_CASE("a read at another index is told to wait for a later loop of its own level") {
  // Blocks: a later block loop of the region, which is accepted (each block loop ends before the
  // next starts), not a later lane loop, which runs in one block.
  const char* const head = R"(fn main() {
    let mut out = transfer(Tensor<f32, [1024]>::fill(0.0), Memory::HBM);
    let mut o2 = transfer(Tensor<f32, [1024]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
)";
  auto blocks = check_source(std::string(head) + R"(        for b in 0..4 across blocks {
            for l in 0..256 across lanes(256) {
                out[b * 256 + l] = out[(b * 256 + l + 1) % 1024] + 1.0;
            }
        }
    }
})");
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0].find("a pass of this block loop may read an element of `out`") !=
        std::string::npos);
  CHECK(blocks[0].find("help: within one pass, read and write `out` at the same index; a later "
                       "block loop may read what this one wrote") != std::string::npos);
  CHECK(check_source(std::string(head) + R"(        for b in 0..4 across blocks {
            for l in 0..256 across lanes(256) { out[b * 256 + l] = 1.0; }
        }
        for b in 0..4 across blocks {
            for l in 0..256 across lanes(256) {
                o2[b * 256 + l] = out[(b * 256 + l + 1) % 1024] + 1.0;
            }
        }
    }
})")
            .empty());
  // Lanes: a later lane loop of the block.
  auto lanes = check_source(std::string(head) + R"(        for b in 0..4 across blocks {
            let mut t = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            for l in 0..256 across lanes(256) { t[l] = 1.0; }
            for l in 0..256 across lanes(256) { t[l] = t[(l + 1) % 256] + 1.0; }
            for l in 0..256 across lanes(256) { out[b * 256 + l] = t[l]; }
        }
    }
})");
  REQUIRE(lanes.size() == 1);
  CHECK(lanes[0].find("a pass of this lane loop may read an element of `t`") != std::string::npos);
  CHECK(lanes[0].find("lane 1 writes element 1 and lane 0 reads it") != std::string::npos);
  CHECK(lanes[0].find("a later lane loop may read what this one wrote") != std::string::npos);
}

TEST_CASE("index by index, a failed combination is reported when the offset is no sum of digits") {
  // `r / 2 * dim1 + c` is no sum of digits; index by index `r / 2` gets a digit table and fails
  // to fix `r`, which is what the message says (it said the coefficient was `dim1`).
  auto halves =
      check_source(R"(pub fn h(out: &mut Tensor<f32, [?, ?], Memory::HBM>, rows: i32, cols: i32) {
    spawn on(Topology::Device) {
        for r in 0..rows across blocks {
            for c in 0..cols across lanes(256) { out[r / 2][c] = 1.0; }
        }
    }
}
fn main() {})");
  REQUIRE(halves.size() == 1);
  CHECK(
      halves[0].starts_with("E6032: two passes of this block loop may write the same element of "
                            "`out`: an index of the write must fix `r` | "));
  CHECK(halves[0].find("the offset is `r / 2 * dim1 + c`, and index by index (§4.9) `r / 2 * "
                       "2147483647 + (index 2)`") != std::string::npos);
  CHECK(halves[0].find("`dim1`, not a constant") == std::string::npos);
  // A flat index has no combination: the offset's failure stays, with its help.
  auto flat =
      check_source(R"(pub fn f(out: &mut Tensor<f32, [?], Memory::HBM>, rows: i32, cols: i32) {
    spawn on(Topology::Device) {
        for r in 0..rows across blocks {
            for c in 0..cols across lanes(256) { out[r / 2 * cols + c] = 1.0; }
        }
    }
}
fn main() {})");
  REQUIRE(flat.size() == 1);
  CHECK(flat[0].find("is `cols`, not a constant") != std::string::npos);
}

TEST_CASE("a refused store's help shows the close variant the rule proves") {
  // A flat index over run-time sizes: per dimension on a [?, ?] tensor instead (§4 step 9).
  auto flat =
      check_source(R"(pub fn scale(out: &mut Tensor<f32, [?], Memory::HBM>, rows: i32, cols: i32) {
    spawn on(Topology::Device) {
        for r in 0..rows across blocks {
            for c in 0..cols across lanes(256) { out[r * cols + c] = 2.0; }
        }
    }
}
fn main() {})");
  REQUIRE(flat.size() == 1);
  CHECK(flat[0].find("the coefficient of `r` is `cols`, not a constant") != std::string::npos);
  CHECK(flat[0].find("help: index each dimension instead of flattening: `out[r][c]` of a `[?, ?]` "
                     "tensor is proved index by index") != std::string::npos);
  // A loop from the lane's index counting by one: the grid-stride loop (§4 step 10).
  auto stride = check_source(R"(pub fn gs(out: &mut Tensor<f32, [?], Memory::HBM>, n: i32) {
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            for l in 0..256 across lanes(256) {
                for c in l..n { out[c] = 1.0; }
            }
        }
    }
}
fn main() {})");
  REQUIRE(stride.size() == 1);
  CHECK(stride[0].find("an index of the write must fix `l`") != std::string::npos);
  CHECK(stride[0].find("help: `c` starts at `l` and counts up by one, so the passes overlap: step "
                       "it by the passes of `l`, `for c in (…).step_by(256)`") !=
        std::string::npos);
  // The same store stepped as the help says is proved, and one that does not start at `l` gets
  // no such help.
  CHECK(check_source(R"(pub fn gs(out: &mut Tensor<f32, [?], Memory::HBM>, n: i32) {
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            for l in 0..256 across lanes(256) {
                for c in (l..n).step_by(256) { out[c] = 1.0; }
            }
        }
    }
}
fn main() {})")
            .empty());
  auto other = check_source(R"(pub fn gs(out: &mut Tensor<f32, [?], Memory::HBM>, n: i32) {
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            for l in 0..256 across lanes(256) {
                for c in 0..n { out[c] = 1.0; }
            }
        }
    }
}
fn main() {})");
  REQUIRE(other.size() == 1);
  CHECK(other[0].find("starts at") == std::string::npos);
  // A product that wraps in i32 for a lane loop up to a parameter: l < cols <= 2^31 - 1, so
  // `l * 3` reaches 3 * (2^31 - 2) = 6442450938 at the last lane, which i64 holds; the help casts
  // `l`, and the index computed in i64 is proved index by index.
  auto wraps = check_source(R"(pub fn k(out: &mut Tensor<i32, [?, ?], Memory::HBM>, cols: i32) {
    spawn on(Topology::Device) {
        for b in 0..4 across blocks {
            for l in 0..cols across lanes(256) {
                for k in 0..3 { out[b][l * 3 + k] = 1; }
            }
        }
    }
}
fn main() {})");
  REQUIRE(wraps.size() == 1);
  CHECK(wraps[0].find("the index may wrap around: `l * 3` computes in i32") != std::string::npos);
  CHECK(wraps[0].find("help: compute `l * 3` in i64, which holds every value it takes (0 to "
                      "6442450938): `(l as i64) * 3`, and cast the index's other terms with it") !=
        std::string::npos);
  CHECK(check_source(R"(pub fn k(out: &mut Tensor<i32, [?, ?], Memory::HBM>, cols: i32) {
    spawn on(Topology::Device) {
        for b in 0..4 across blocks {
            for l in 0..cols across lanes(256) {
                for k in 0..3 { out[b][(l as i64) * 3 + (k as i64)] = 1; }
            }
        }
    }
}
fn main() {})")
            .empty());
  // A u8 product: i32 holds 255 * 3 = 765 (spec/kernel-rules.md §4 step 11's example). A product
  // in i64 has no wider type: no such help.
  auto u8 = check_source(R"(fn main() {
    let mut out = transfer(Tensor<i32, [766]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            for l in 0u8..=255u8 across lanes { out[(l * 3u8) as i32] = 1; }
        }
    }
})");
  REQUIRE(u8.size() == 1);
  CHECK(u8[0].find("help: compute `l * 3` in i32, which holds every value it takes (0 to 765): "
                   "`(l as i32) * 3`") != std::string::npos);
  auto i64 = check_source(R"(fn main() {
    let mut out = transfer(Tensor<i32, [8]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..8 across blocks {
            for l in 0..8 across lanes { out[(b as i64) * 4611686018427387904 + (l as i64)] = 1; }
        }
    }
})");
  REQUIRE(i64.size() == 1);
  CHECK(i64[0].find("may wrap around") != std::string::npos);
  CHECK(i64[0].find("help: compute") == std::string::npos);
}
