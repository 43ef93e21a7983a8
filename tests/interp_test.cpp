// The interpreter (src/interp): programs through parse -> check -> run, and one typed program
// built by hand, checking output, exit status and runtime-error messages.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "check/checker.hpp"
#include "check/tir_walk.hpp"
#include "interp/host_parallel.hpp"
#include "interp/interpreter.hpp"
#include "parse/parser.hpp"
#include "pipeline/pipeline.hpp"
#include "support/diagnostics.hpp"
#include "support/internal_error.hpp"

using namespace vx;

namespace {

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

Result run_source(const std::string& text) {
  pipeline::Options front;
  front.through = pipeline::Step::OffloadMarks;
  pipeline::Compiled c = pipeline::compile(std::make_shared<SourceFile>("test.vx", text), front);
  Result r;
  if (!c.ok() || c.diags->has_errors()) {
    std::ostringstream e;
    emit_diagnostics(e, *c.diags, ErrorFormat::Human);
    r.status = 1;
    r.err = e.str();
    return r;
  }
  std::ostringstream out, err;
  pipeline::RunRequest run;
  run.offload.mode = "off";  // the interpreter alone
  r.status = pipeline::run(c, run, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// Runs `body` inside `fn main() { … }` and returns what it printed.
std::string run_main(const std::string& body) {
  Result r = run_source("fn main() {\n" + body + "\n}\n");
  INFO(r.err);
  CHECK(r.status == 0);
  return r.out;
}

// Runs a program expected to stop with a runtime error; returns stderr.
std::string run_error(const std::string& text) {
  Result r = run_source(text);
  INFO(r.out);
  INFO(r.err);
  CHECK(r.status == 101);
  return r.err;
}

}  // namespace

TEST_CASE("the book programs print the seed's outputs") {
  Result r = run_source(R"(fn main() -> i32 {
    let mut grid = transfer(Tensor<f32, [64, 300]>::fill(1.0), Memory::HBM);
    spawn on(Topology::Device) {
        for y in 0..64 across blocks {
            for x in 0..300 across lanes(256) {
                grid[y][x] = grid[y][x] * 2.0 + (y as f32);
            }
        }
    }
    let back = transfer(grid, Memory::CPU_DRAM);
    println!("corner {}, last row {}", back[0][0], back[63][299]);
    return 0;
})");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "corner 2, last row 65\n");

  r = run_source(R"(fn main() -> i32 {
    let mut m = Tensor<f32, [8, 256]>::fill(0.0);
    for r in 0..8 {
        for c in 0..256 {
            m[r][c] = (r + 1) as f32;
        }
    }
    let rows = transfer(m, Memory::HBM);
    let mut sums = transfer(Tensor<f32, [8]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..8 across blocks {
            let mut part = unsafe { Tensor<f32, [256], Memory::SMEM>::uninit() };
            for t in 0..256 across lanes {
                part[t] = rows[b][t];
            }
            let s = lanes::sum(&part, 256);
            sums[b] = s;
        }
    }
    let back = transfer(sums, Memory::CPU_DRAM);
    println!("row 0: {}, row 7: {}", back[0], back[7]);
    return 0;
})");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "row 0: 256, row 7: 2048\n");

  r = run_source(R"(import core::sync::atomic;
fn main() -> i32 {
    let mut v = Tensor<i32, [1024]>::fill(0);
    for i in 0..1024 {
        v[i] = (i * 7) % 8;
    }
    let values = transfer(v, Memory::HBM);
    let bins = transfer(Tensor<u32, [8]>::fill(0u32), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..4 across blocks {
            for l in 0..256 across lanes {
                let x = values[b * 256 + l];
                let _old = atomic_fetch_add_u32(&bins, x, 1u32, AtomicOrdering::Relaxed);
            }
        }
    }
    let back = transfer(bins, Memory::CPU_DRAM);
    println!("bin 0: {}, bin 7: {}", back[0], back[7]);
    return 0;
})");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "bin 0: 128, bin 7: 128\n");
}

TEST_CASE("exit status") {
  CHECK(run_source("fn main() -> i32 { return 300; }").status == 44);
  CHECK(run_source("fn main() -> i32 { -1 }").status == 255);
  CHECK(run_source("fn main() { }").status == 0);
}

TEST_CASE("integers wrap and are never undefined") {
  CHECK(run_main(R"(let a: i8 = 127; println!("{}", a + 1i8);
    let b: u8 = 0; println!("{}", b - 1u8);
    let c: i32 = -2147483648; println!("{} {}", c / -1, c % -1);
    println!("{} {} {}", -7 / 2, -7 % 2, 7 % -2);
    let d: i64 = 9223372036854775807; println!("{}", d * 2i64);
    let e: u16 = 65535; println!("{}", e * e);
    println!("{} {} {}", -8 >> 1, 0x80000000u32 >> 31, 1 << 31);
    println!("{} {}", !0u8, !5);
    println!("{}", 3.pow(21u32));
    let m: i32 = -2147483648; println!("{}", m.abs());
    println!("{} {}", 5.min(3), (-5i64).max(2i64));)") ==
        "-128\n255\n-2147483648 0\n-3 -1 1\n-2\n1\n-4 1 -2147483648\n255 -6\n1870418611\n"
        "-2147483648\n3 2\n");
}

TEST_CASE("casts") {
  CHECK(run_main(R"(println!("{} {} {}", 300 as u8, -1 as u32, -1i64 as u64);
    println!("{} {} {}", 1e10 as i32, -1e10 as i32, (0.0f64 / 0.0) as i32);
    println!("{} {}", 2.9f32 as i32, -2.9 as i64);
    println!("{} {}", 1e20 as u64, -5.0 as u8);
    println!("{} {}", true as i32, false as u8);
    println!("{} {}", 16777217 as f32, 0.1f64 as f32);
    println!("{} {}", 65520 as f16, 1.0e-8 as f16);
    println!("{} {}", 3 as bf16, 257 as bf16);)") ==
        "44 4294967295 18446744073709551615\n2147483647 -2147483648 0\n2 -2\n"
        "18446744073709551615 0\n1 0\n16777216 0.1\ninf 0\n3 256\n");
}

TEST_CASE("floats, halves and no contraction") {
  CHECK(run_main(R"(let a = 0.1f32; let b = 0.2f32; println!("{}", a + b);
    println!("{:?} {:?}", 1.0f64, -0.0f64);
    println!("{} {} {}", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0);
    println!("{}", 7.5 % 2.0);
    let h: f16 = 1.0; let t: f16 = 0.00048828125; println!("{}", h + t);
    let x: f16 = 2048.0; println!("{}", x + 1.0);
    let y: bf16 = 1.0; println!("{}", y / 3.0);
    let n = 0.0f32 / 0.0; println!("{} {} {}", n == n, n != n, n < 1.0);
    let p = 1.0000001f32; let q = 1.0000001f32; println!("{}", p * q - 1.0);)") ==
        "0.3\n1.0 -0.0\ninf -inf NaN\n1.5\n1\n2048\n0.334\nfalse true false\n"
        "0.00000023841858\n");
}

TEST_CASE("control flow") {
  CHECK(run_main(R"(let mut s = 0;
    for i in 0..10 { if i % 2 == 0 { continue; } if i > 7 { break; } s += i; }
    println!("{}", s);
    let mut n = 0u32; for _k in 0u8..=255 { n += 1u32; } println!("{}", n);
    let mut m = 0; for i in 250u8..=255 { m += i as i32; } println!("{}", m);
    let mut w = 0; while w < 5 { w += 2; } println!("{}", w);
    let mut c = 0; loop { c += 1; if c == 3 { break; } } println!("{}", c);
    let v = if s > 10 { 1 } else if s > 5 { 2 } else { 3 }; println!("{}", v);
    let b = { let t = 4; t * t }; println!("{}", b);
    for i in 5..3 { println!("never {}", i); }
    println!("{}", true && false || true);)") == "16\n256\n1515\n6\n3\n1\n16\ntrue\n");
}

TEST_CASE("functions, recursion and returns from nested blocks") {
  Result r = run_source(R"(
fn fib(n: i32) -> i32 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
fn first_over(t: &Tensor<i32, [?]>, limit: i32) -> i32 {
    for i in 0..t.len() { if t[i] > limit { return i; } }
    -1
}
fn early(x: i32) -> i32 {
    let y = { if x > 0 { return 100; } 5 };
    y + 1
}
fn make(n: i32) -> Tensor<i32, [4]> {
    let mut t = Tensor<i32, [4]>::fill(0);
    for i in 0..4 { t[i] = i * n; }
    t
}
fn bump(t: &mut Tensor<i32, [?]>) { t[0] += 1000; }
fn main() {
    println!("{}", fib(20));
    let mut t = make(3);
    bump(&mut t);
    println!("{} {} {}", t[0], t[3], first_over(&t, 5));
    println!("{} {}", early(1), early(-1));
    println!("{} {}", t.len(), t.dim(0));
})");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "6765\n1000 9 0\n100 6\n4 4\n");
}

TEST_CASE("tensors of higher rank and views") {
  CHECK(run_main(R"(let mut t = Tensor<i64, [2, 3, 4]>::fill(0i64);
    for a in 0..2 { for b in 0..3 { for c in 0..4 { t[a][b][c] = (a * 100 + b * 10 + c) as i64; } } }
    println!("{} {}", t[1][2][3], t[0][1][2]);
    let r = &t[1];
    println!("{} {} {}", r[2][1], r.len(), r.dim(1));
    let mut u = Tensor<f64, [2, 2, 2, 2]>::fill(0.5);
    u[1][1][1][1] = 2.5;
    println!("{} {}", u[1][1][1][1], u[0][0][0][0]);)") == "123 12\n121 3 4\n2.5 0.5\n");
}

TEST_CASE("runtime errors") {
  std::string e = run_error(
      "fn main() {\n  let t = Tensor<f32, [4]>::fill(0.0);\n  let i = 4;\n  println!(\"{}\", "
      "t[i]);\n}\n");
  CHECK(e.find("error: runtime error: index out of bounds: the len is 4 but the index is 4") !=
        std::string::npos);
  CHECK(e.find("`t`") != std::string::npos);
  CHECK(e.find("--> test.vx:4:") != std::string::npos);

  e = run_error("fn main() {\n  let z = 0;\n  println!(\"{}\", 1 / z);\n}\n");
  CHECK(e.find("attempt to divide by zero") != std::string::npos);
  CHECK(e.find("--> test.vx:3:") != std::string::npos);
  e = run_error("fn main() { let z = 0; println!(\"{}\", 1 % z); }");
  CHECK(e.find("remainder with a divisor of zero") != std::string::npos);
  e = run_error("fn main() { let s = 8u32; println!(\"{}\", 1u8 << s); }");
  CHECK(e.find("attempt to shift left by 8, which is out of range for u8") != std::string::npos);
  e = run_error("fn main() { let s = -1; println!(\"{}\", 1 >> s); }");
  CHECK(e.find("shift right by -1") != std::string::npos);
  e = run_error("fn main() { let x = 0; assert!(x > 0); }");
  CHECK(e.find("assertion failed: x > 0") != std::string::npos);
  e = run_error("fn main() { let x = 3; assert!(x > 5, \"x was {}\", x); }");
  CHECK(e.find("runtime error: x was 3") != std::string::npos);
  e = run_error("fn main() { assert_eq!(1, 2); }");
  CHECK(e.find("assertion `left == right` failed\n  left: 1\n right: 2") != std::string::npos);
  e = run_error("fn f(n: i32) -> i32 { f(n + 1) + 1 }\nfn main() { println!(\"{}\", f(0)); }");
  CHECK(e.find("stack overflow: more than 10000 nested calls") != std::string::npos);
  e = run_error(R"(fn main() {
    let mut out = transfer(Tensor<f32, [1]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            let mut part = unsafe { Tensor<f32, [4], Memory::SMEM>::uninit() };
            for t in 0..3 across lanes { part[t] = 1.0; }
            out[b] = part[3];
        }
    }
})");
  CHECK(e.find("read of uninitialised element [3] of SMEM tile `part`") != std::string::npos);
  e = run_error(R"(fn main() {
    let mut out = transfer(Tensor<f32, [1]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            let mut part = unsafe { Tensor<f32, [4], Memory::SMEM>::uninit() };
            for t in 0..4 across lanes { part[t] = 1.0; }
            let s = lanes::sum(&part, 5);
            out[b] = s;
        }
    }
})");
  CHECK(e.find("lanes::sum: n is 5 but the tile has 4 elements") != std::string::npos);
}

TEST_CASE("output before a runtime error is kept") {
  Result r = run_source("fn main() { println!(\"before\"); let z = 0; println!(\"{}\", 1 / z); }");
  CHECK(r.status == 101);
  CHECK(r.out == "before\n");
}

TEST_CASE("lanes routines use the tree order and leave the tile unchanged") {
  // For n = 5 the sum is ((t0 + t4) + t2) + (t1 + t3); with 1e8 and small values the order shows.
  Result r = run_source(R"(fn main() {
    let mut src = Tensor<f32, [8]>::fill(0.0);
    src[0] = 100000000.0; src[1] = 1.0; src[2] = 1.0; src[3] = 3.0; src[4] = -100000000.0;
    src[5] = 7.0; src[6] = 7.0; src[7] = 2.0;
    let x = transfer(src, Memory::HBM);
    let mut res = transfer(Tensor<f32, [6]>::fill(0.0), Memory::HBM);
    let mut ks = transfer(Tensor<i64, [8]>::fill(0i64), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            let mut t = unsafe { Tensor<f32, [8], Memory::SMEM>::uninit() };
            for i in 0..8 across lanes { t[i] = x[i]; }
            let s5 = lanes::sum(&t, 5);
            let m = lanes::max(&t, 8);
            let a = lanes::argmax(&t, 8);
            let a2 = lanes::argmax(&t, 7);
            let u = lanes::sum_unordered(&t, 3);
            res[0] = s5; res[1] = m; res[2] = a as f32; res[3] = a2 as f32; res[4] = u;
            res[5] = t[4];
            let mut k = unsafe { Tensor<i64, [8], Memory::SMEM>::uninit() };
            for i in 0..8 across lanes { k[i] = ((i * 5) % 8) as i64 - 3i64; }
            lanes::sort(&mut k, 6);
            for i in 0..8 across lanes { ks[i] = k[i]; }
        }
    }
    let back = transfer(res, Memory::CPU_DRAM);
    println!("{} {} {} {} {} {}", back[0], back[1], back[2], back[3], back[4], back[5]);
    let kb = transfer(ks, Memory::CPU_DRAM);
    println!("{} {} {} {} {} {} {} {}", kb[0], kb[1], kb[2], kb[3], kb[4], kb[5], kb[6], kb[7]);
})");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "5 100000000 0 0 100000000 -100000000\n-3 -2 -1 1 2 4 3 0\n");
}

TEST_CASE("copy_async zero-fills outside the source") {
  Result r = run_source(R"(fn main() {
    let mut s = Tensor<f32, [4, 6]>::fill(0.0);
    for i in 0..4 { for j in 0..6 { s[i][j] = (10 * i + j) as f32; } }
    let src = transfer(s, Memory::HBM);
    let mut out = transfer(Tensor<f32, [2, 2, 4]>::fill(-1.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..1 across blocks {
            let mut tiles = unsafe { Tensor<f32, [2, 2, 4], Memory::SMEM>::uninit() };
            let t0 = lanes::copy_async(&mut tiles[0], &src, [3, 4]);
            let t1 = lanes::copy_async(&mut tiles[1], &src, [-1, 1]);
            t0.wait();
            t1.wait();
            for i in 0..2 {
                for j in 0..4 across lanes { out[0][i][j] = tiles[0][i][j]; }
                for j in 0..4 across lanes { out[1][i][j] = tiles[1][i][j]; }
            }
        }
    }
    let o = transfer(out, Memory::CPU_DRAM);
    for k in 0..2 { for i in 0..2 { println!("{} {} {} {}", o[k][i][0], o[k][i][1], o[k][i][2], o[k][i][3]); } }
})");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "34 35 0 0\n0 0 0 0\n0 0 0 0\n1 2 3 4\n");
}

TEST_CASE("atomics") {
  CHECK(run_main(R"(let t = Tensor<i32, [4]>::fill(5);
    println!("{}", atomic_fetch_add_i32(&t, 0, 2147483647, AtomicOrdering::Relaxed));
    println!("{}", atomic_load_i32(&t, 0, AtomicOrdering::SeqCst));
    println!("{}", atomic_fetch_max_i32(&t, 1, 9, AtomicOrdering::AcqRel));
    println!("{}", atomic_fetch_min_i32(&t, 1, 2, AtomicOrdering::Release));
    println!("{}", atomic_compare_and_swap_i32(&t, 1, 2, 7, AtomicOrdering::SeqCst));
    println!("{}", atomic_compare_and_swap_i32(&t, 1, 2, 8, AtomicOrdering::SeqCst));
    atomic_store_i32(&t, 2, -4, AtomicOrdering::Release);
    println!("{}", atomic_swap_i32(&t, 2, 1, AtomicOrdering::Acquire));
    let f = Tensor<f32, [2]>::fill(1.5);
    println!("{}", atomic_fetch_add_f32(&f, 1, 0.25, AtomicOrdering::Relaxed));
    println!("{}", atomic_fetch_sub_f32(&f, 1, 1.0, AtomicOrdering::Relaxed));
    println!("{}", atomic_load_f32(&f, 1, AtomicOrdering::Relaxed));
    scoped_fence(AtomicOrdering::SeqCst, FenceScope::System);)") ==
        "5\n-2147483644\n5\n9\n2\n7\n-4\n1.5\n1.75\n0.75\n");
  std::string e = run_error(
      "fn main() { let t = Tensor<u32, [8]>::fill(0u32); let i = 8; atomic_store_u32(&t, i, 1u32, "
      "AtomicOrdering::Relaxed); }");
  CHECK(e.find("the len is 8 but the index is 8") != std::string::npos);
}

namespace {

// A program that runs each loop body of `bodies` over the passes start..end, either as a `for`
// loop (a lane loop, compile_lane_loop.cpp, when the body fits) or as a `while` loop (the general
// nodes), then prints every element of every tensor.
std::string lane_program(const std::vector<std::string>& bodies, bool as_for) {
  std::string s = R"(import core::sync::atomic;
fn main() {
    let mut a = Tensor<f32, [300]>::fill(0.0);
    let mut b = Tensor<f32, [301]>::fill(0.5);
    let mut e = Tensor<f64, [300]>::fill(0.0);
    let mut h = Tensor<f16, [300]>::fill(0.0);
    let mut p = Tensor<i32, [300]>::fill(1);
    let mut w = Tensor<u8, [256]>::fill(0);
    let mut v = Tensor<i32, [300]>::fill(0);
    let bins = Tensor<u32, [8]>::fill(0u32);
    let mut i = 0;
    while i < 300 {
        a[i] = ((i % 71) as f32 - 35.0) * 0.13;
        v[i] = (i * 7) % 8;
        i += 1;
    }
)";
  for (const std::string& body : bodies) {
    // `START..END;BODY`
    const size_t semi = body.find(';');
    const std::string range = body.substr(0, semi), text = body.substr(semi + 1);
    const size_t dots = range.find("..");
    const std::string start = range.substr(0, dots), end = range.substr(dots + 2);
    if (as_for) {
      s += "    for i in " + range + " {\n        " + text + "\n    }\n";
    } else {
      s += "    let mut i = " + start + ";\n    while i < " + end + " {\n        " + text +
           "\n        i += 1;\n    }\n";
    }
  }
  s += R"(    let mut k = 0;
    while k < 300 {
        println!("{:?} {:?} {:?} {:?} {:?} {:?}", a[k], b[k], e[k], h[k], p[k], v[k]);
        k += 1;
    }
    let mut m = 0;
    while m < 256 { println!("{}", w[m]); m += 1; }
    println!("{} {}", bins[0], bins[7]);
}
)";
  return s;
}

}  // namespace

TEST_CASE("lane loops give the results and the errors of one pass at a time") {
  const std::vector<std::string> bodies = {
      // GELU: lets, a math method, constants; several chunks and a partial one.
      "0..300;let x = a[i]; let c = 0.044715 * x * x * x; "
      "b[i] = 0.5 * x * (1.0 + (0.7978846 * (x + c)).tanh());",
      // Integers: wrapping, division by constants, bit operators, casts, a compound store.
      "0..300;let k = (a[i] * 100.0) as i32; p[i] = ((i * 7 - 3) % 5) * (i / 3) + k * k - (k & 6);",
      "1..300;p[i] += (i % 3) * -2;",
      // Halves and f64 methods.
      "0..300;h[i] = (a[i] as f16) * 1.5 + (i as f16);",
      "0..300;let d = a[i] as f64; e[i] = d.abs().sqrt().max(0.25) - d.min(-0.5) + "
      "d.exp().floor();",
      // Reading elements after the stored one runs a chunk at a time; reading the one before
      // needs the passes in order (the general loop).
      "0..299;a[i] = a[i + 1] * 2.0;",
      "0..300;b[i + 1] = b[i] + 1.0;",
      // An index that wraps at its type's width (u8: 156 + 100 = 0).
      "0u8..200;w[i + 100] = i;",
      // An atomic on a computed bin.
      "0..300;let x = v[i]; let _old = atomic_fetch_add_u32(&bins, x, 1u32, "
      "AtomicOrdering::Relaxed);",
  };
  Result lanes = run_source(lane_program(bodies, true));
  Result general = run_source(lane_program(bodies, false));
  INFO(lanes.err);
  INFO(general.err);
  CHECK(lanes.status == 0);
  CHECK(general.status == 0);
  CHECK(lanes.out.size() > 3000);
  CHECK(lanes.out == general.out);
  CHECK(lanes.out.find("\n38 38\n") != std::string::npos);  // 300 values over 8 bins

  // A proof that fails hands the range to the general loop, which stops at the failing pass.
  std::string e = run_error(R"(fn main() {
    let mut g = Tensor<f32, [2, 300]>::fill(1.0);
    let r = 1;
    for x in 0..301 {
        g[r][x] = g[r][x] * 2.0 + (x as f32);
    }
})");
  CHECK(e.find("index out of bounds: the len is 300 but the index is 300 (dimension 1 of `g`)") !=
        std::string::npos);
  CHECK(e.find("--> test.vx:5:9") != std::string::npos);
  e = run_error(R"(fn main() {
    let mut g = Tensor<f32, [300]>::fill(1.0);
    let h = Tensor<f32, [300]>::fill(1.0);
    for x in 0..300 {
        let y = h[x + 5];
        g[x] = y;
    }
})");
  CHECK(e.find("the len is 300 but the index is 300 (dimension 0 of `h`)") != std::string::npos);
  CHECK(e.find("--> test.vx:5:17") != std::string::npos);
  e = run_error(R"(fn main() {
    let mut g = Tensor<f32, [300]>::fill(1.0);
    for x in -1..3 {
        g[x] = 0.0;
    }
})");
  CHECK(e.find("the len is 300 but the index is -1 (dimension 0 of `g`)") != std::string::npos);
  e = run_error(R"(fn main() {
    let mut t = Tensor<i32, [200]>::fill(0);
    for i in 0u8..200 {
        t[i + 100] = 1;
    }
})");
  CHECK(e.find("the len is 200 but the index is 200 (dimension 0 of `t`)") != std::string::npos);
  // The atomic's index is checked pass by pass; the passes before the failing one made theirs.
  Result r = run_source(R"(import core::sync::atomic;
fn main() {
    let mut v = Tensor<i32, [300]>::fill(1);
    v[200] = 8;
    let bins = Tensor<u32, [8]>::fill(0u32);
    for i in 0..300 {
        let x = v[i];
        atomic_fetch_add_u32(&bins, x, 1u32, AtomicOrdering::Relaxed);
    }
})");
  CHECK(r.status == 101);
  CHECK(r.err.find("the len is 8 but the index is 8 (dimension 0 of `bins`)") != std::string::npos);
  CHECK(r.err.find("--> test.vx:8:9") != std::string::npos);
  r = run_source(R"(import core::sync::atomic;
fn main() {
    let mut v = Tensor<i32, [300]>::fill(1);
    v[299] = -3;
    let bins = Tensor<u32, [8]>::fill(0u32);
    for i in 0..299 {
        atomic_fetch_add_u32(&bins, v[i], 1u32, AtomicOrdering::Relaxed);
    }
    for i in 299..300 {
        let x = v[i];
        atomic_fetch_add_u32(&bins, x, 1u32, AtomicOrdering::Relaxed);
    }
})");
  CHECK(r.err.find("the len is 8 but the index is -3 (dimension 0 of `bins`)") !=
        std::string::npos);
  e = run_error(R"(fn main() {
    let mut out = transfer(Tensor<f32, [8]>::fill(0.0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            let mut part = unsafe { Tensor<f32, [4], Memory::SMEM>::uninit() };
            for t in 0..3 across lanes { part[t] = 1.0; }
            for t in 0..4 across lanes { out[b * 4 + t] = part[t] * 2.0; }
        }
    }
})");
  CHECK(e.find("read of uninitialised element [3] of SMEM tile `part`") != std::string::npos);
  CHECK(e.find("--> test.vx:7:59") != std::string::npos);
}

TEST_CASE("math methods") {
  CHECK(run_main(R"(println!("{} {} {}", 2.0f32.sqrt(), 1.0f64.exp(), 8.0f32.log2());
    println!("{} {} {} {}", 2.5f32.round(), -2.5f64.round(), 2.7f32.floor(), -2.7f32.ceil());
    println!("{} {}", 2.0f64.pow(10.0), (-3.5f32).abs());
    let n = 0.0f32 / 0.0; println!("{} {}", n.max(1.0), n.min(-1.0));
    let h: f16 = 2.0; println!("{}", h.sqrt());
    println!("{}", 0.5f32.tanh());)") ==
        "1.4142135 2.718281828459045 3\n3 -3 2 -3\n1024 3.5\n1 -1\n1.414\n0.46211717\n");
}

TEST_CASE("formatting of every scalar type") {
  CHECK(run_main(R"(println!("{} {} {} {}", -5i8, -300i16, 70000u32, 18446744073709551615u64);
    println!("{:x} {:#b} {:>6}|{:<4}|{:^5}|", 255u8, 5i16, 42, true, -1);
    println!("{:.3} {:+} {:08.2} {:e}", 3.14159f64, 7, -2.5, 1234.5f32);
    println!("{} {}", 0.1f32, 1e-7);
    let b: bf16 = 3.0; let h: f16 = 0.1; println!("{} {:?}", b, h);
    println!("{{}} {0} {0}", 9);
    print!("a"); print!("b\n");)") ==
        "-5 -300 70000 18446744073709551615\nff 0b101     42|true| -1  |\n"
        "3.142 +7 -0002.50 1.2345e3\n0.1 0.0000001\n3 0.1\n{} 9 9\nab\n");
}

TEST_CASE("a typed program built by hand") {
  // fn main() -> i32 { let x: i32 = 40; return x + 2; }
  tir::Program p;
  p.file = std::make_shared<SourceFile>("hand.vx", "hand");
  tir::Function fn;
  fn.name = "main";
  fn.ret = Type::of(Scalar::I32);
  fn.slot_types = {Type::of(Scalar::I32)};
  fn.slot_names = {"x"};
  tir::Block* body = p.new_block();
  tir::Stmt* let = p.new_stmt();
  let->kind = tir::StmtKind::Let;
  let->slot = 0;
  let->value = p.new_expr();
  let->value->kind = tir::ExprKind::Literal;
  let->value->type = Type::of(Scalar::I32);
  let->value->lit.i = 40;
  tir::Stmt* ret = p.new_stmt();
  ret->kind = tir::StmtKind::Return;
  tir::Expr* add = p.new_expr();
  add->kind = tir::ExprKind::Binary;
  add->bop = tir::BinOp::Add;
  add->type = Type::of(Scalar::I32);
  tir::Expr* var = p.new_expr();
  var->kind = tir::ExprKind::Var;
  var->slot = 0;
  var->type = Type::of(Scalar::I32);
  tir::Expr* two = p.new_expr();
  two->kind = tir::ExprKind::Literal;
  two->type = Type::of(Scalar::I32);
  two->lit.i = 2;
  add->args = {var, two};
  ret->value = add;
  body->stmts = {let, ret};
  fn.body = body;
  p.functions.push_back(std::move(fn));
  p.main_index = 0;
  std::ostringstream out, err;
  RunOptions options;
  options.out = &out;
  options.err = &err;
  CHECK(run_program(p, options) == 42);
}

namespace {
struct CountingRunner : RegionRunner {
  int seen = 0;
  bool take = false;
  bool run_region(const tir::Stmt& spawn, interp::Frame&) override {
    CHECK(spawn.kind == tir::StmtKind::Spawn);
    ++seen;
    return take;
  }
};
}  // namespace

TEST_CASE("a region runner sees each spawn region and may take it") {
  const std::string src = R"(fn main() {
    let mut g = transfer(Tensor<i32, [4]>::fill(1), Memory::HBM);
    spawn on(Topology::Device) { for b in 0..4 across blocks { g[b] = 7; } }
    let h = transfer(g, Memory::CPU_DRAM);
    println!("{}", h[2]);
})";
  pipeline::Compiled c = pipeline::compile(std::make_shared<SourceFile>("r.vx", src));
  REQUIRE(c.ok());
  const tir::Program* program = c.program.get();
  for (bool take : {false, true}) {
    CountingRunner runner;
    runner.take = take;
    std::ostringstream out, err;
    RunOptions options;
    options.out = &out;
    options.err = &err;
    options.runner = &runner;
    CHECK(run_program(*program, options) == 0);
    CHECK(runner.seen == 1);
    CHECK(out.str() == (take ? "1\n" : "7\n"));
  }
}

// A broken invariant of vx (here: a runner that reports one) is an internal error, exit 70, with
// vx's own source position; never a runtime error of the program (exit 101, no position).
constexpr int kBrokenLine = __LINE__ + 3;
struct BrokenRunner : RegionRunner {
  bool run_region(const tir::Stmt&, interp::Frame&) override {
    vx::internal_error("a test's broken invariant");
  }
};

TEST_CASE("an internal error is vx's, not the program's") {
  pipeline::Compiled c = pipeline::compile(std::make_shared<SourceFile>("r.vx", R"(fn main() {
    let mut g = transfer(Tensor<i32, [4]>::fill(1), Memory::HBM);
    spawn on(Topology::Device) { for b in 0..4 across blocks { g[b] = 7; } }
})"));
  REQUIRE(c.ok());
  for (ErrorFormat format : {ErrorFormat::Human, ErrorFormat::Json}) {
    BrokenRunner runner;
    std::ostringstream out, err;
    RunOptions options;
    options.out = &out;
    options.err = &err;
    options.runner = &runner;
    options.error_format = format;
    CHECK(run_program(*c.program, options) == 70);
    INFO(err.str());
    // The component is the calling file's folder: this test is none of vx's (see below).
    CHECK(err.str().find("internal error in vx: a test's broken invariant (at ") !=
          std::string::npos);
    CHECK(err.str().find("interp_test.cpp:" + std::to_string(kBrokenLine) +
                         "; this is a bug in vx)") != std::string::npos);
    CHECK(err.str().find("runtime error") == std::string::npos);
    if (format == ErrorFormat::Json) CHECK(err.str().rfind("{", 0) == 0);
  }
}

TEST_CASE("an internal error names the component and the line, and calls the hook first") {
  CHECK(vx::internal_error_text("a lost slot", "/home/x/vx/src/check/checker.cpp", 12) ==
        "internal error in the checker: a lost slot (at src/check/checker.cpp:12; this is a bug "
        "in vx)");
  CHECK(vx::internal_error_text("w", "src/interp/compile_ops.cpp", 3) ==
        "internal error in the interpreter: w (at src/interp/compile_ops.cpp:3; this is a bug in "
        "vx)");
  static std::string seen;
  vx::set_internal_error_hook([](const std::string& text) { seen = text; });
  std::map<int, int> m{{1, 2}};
  CHECK(vx::must_find(m, 1) == 2);
  const int line = __LINE__ + 1;
  CHECK_THROWS_AS(vx::must_find(m, 5), vx::InternalError);
  vx::set_internal_error_hook(nullptr);
  CHECK(seen.find("a lookup of a key that is always present missed (at ") != std::string::npos);
  CHECK(seen.find("interp_test.cpp:" + std::to_string(line) + ";") != std::string::npos);
}

TEST_CASE("speed of the scale loop (informative)") {
  const int rows = 256, cols = 16384;
  const std::string src = "fn main() {\n let mut grid = transfer(Tensor<f32, [" +
                          std::to_string(rows) + ", " + std::to_string(cols) +
                          "]>::fill(1.0), Memory::HBM);\n spawn on(Topology::Device) {\n"
                          "  for y in 0.." +
                          std::to_string(rows) +
                          " across blocks {\n"
                          "   for x in 0.." +
                          std::to_string(cols) +
                          " across lanes(256) {\n"
                          "    grid[y][x] = grid[y][x] * 2.0 + (y as f32);\n   }\n  }\n }\n"
                          " let back = transfer(grid, Memory::CPU_DRAM);\n"
                          " println!(\"{}\", back[255][16383]);\n}\n";
  const auto t0 = std::chrono::steady_clock::now();
  Result r = run_source(src);
  const auto t1 = std::chrono::steady_clock::now();
  CHECK(r.out == "257\n");
  const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / (rows * cols);
  MESSAGE("scale loop: " << ns << " ns per element (including fill and setup)");
}

// Which tensors an across-blocks loop's host tasks may sum in copies of their own
// (host_parallel.hpp, spec/cli.md §2): only those touched by Relaxed integer fetch_add/fetch_sub
// alone, by their own name, with the old values dropped.
TEST_CASE("private sums: the tensors an across-blocks loop only adds to") {
  const std::string text = R"(
fn main() {
    let v = transfer(Tensor<i32, [512]>::fill(1), Memory::HBM);
    let wide = transfer(Tensor<u32, [5]>::fill(0u32), Memory::HBM);
    let down = transfer(Tensor<i64, [5]>::fill(0i64), Memory::HBM);
    let read = transfer(Tensor<i64, [5]>::fill(0i64), Memory::HBM);
    let strong = transfer(Tensor<u32, [5]>::fill(0u32), Memory::HBM);
    let mixed = transfer(Tensor<u32, [5]>::fill(0u32), Memory::HBM);
    let fl = transfer(Tensor<f32, [5]>::fill(0.0), Memory::HBM);
    let mut out = transfer(Tensor<u32, [2]>::fill(0u32), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..2 across blocks {
            for l in 0..256 across lanes {
                let x = v[b * 256 + l];
                let _w = atomic_fetch_add_u32(&wide, x, 1u32, AtomicOrdering::Relaxed);
                atomic_fetch_sub_i64(&down, x, 1i64, AtomicOrdering::Relaxed);
                let old = atomic_fetch_add_i64(&read, x, 1i64, AtomicOrdering::Relaxed);
                if old < 0i64 {
                    let _z = atomic_fetch_add_i64(&read, 0, 1i64, AtomicOrdering::Relaxed);
                }
                let _s = atomic_fetch_add_u32(&strong, x, 1u32, AtomicOrdering::SeqCst);
                let _m = atomic_fetch_add_u32(&mixed, x, 1u32, AtomicOrdering::Relaxed);
                let _f = atomic_fetch_add_f32(&fl, x, 1.0, AtomicOrdering::Relaxed);
            }
            out[b] = atomic_load_u32(&mixed, 0, AtomicOrdering::Relaxed);
        }
    }
}
)";
  pipeline::Options front;
  front.through = pipeline::Step::Lower;
  pipeline::Compiled c = pipeline::compile(std::make_shared<SourceFile>("test.vx", text), front);
  {
    std::ostringstream e;
    emit_diagnostics(e, *c.diags, ErrorFormat::Human);
    INFO(e.str());
    REQUIRE((c.ok() && !c.diags->has_errors()));
  }
  const tir::Program* program = c.program.get();
  const tir::Function& main_fn = program->functions[program->main_index];
  const tir::Stmt* loop = nullptr;
  tir::walk_block(main_fn.body, [&](const tir::Stmt* s, const tir::Expr*) {
    if (s && s->kind == tir::StmtKind::For && s->across == tir::Across::Blocks) loop = s;
  });
  REQUIRE(loop);
  const interp::PrivateSumPlan plan = interp::private_sum_tensors(*loop);
  std::vector<std::string> summed, others;
  for (auto& t : plan.tensors)
    summed.push_back(main_fn.slot_names[t.slot] + ":" + std::to_string(t.elem_bytes));
  for (int o : plan.others) others.push_back(main_fn.slot_names[o]);
  std::sort(summed.begin(), summed.end());
  std::sort(others.begin(), others.end());
  CHECK(summed == std::vector<std::string>{"down:8", "wide:4"});
  CHECK(others == std::vector<std::string>{"fl", "mixed", "out", "read", "strong", "v"});
}
