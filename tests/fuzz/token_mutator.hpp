// A structure-aware mutator for Vx text (the harnesses that read .vx: parse, check, run,
// emit_cuda, repl): half the time libFuzzer's own byte-level mutation (with vx.dict), else an
// edit on tokens — identifiers, numbers, strings, comments, punctuation — so that a mutant still
// mostly lexes: a token range duplicated, deleted or moved, a token replaced by another of the
// same input, or a token range of another input spliced in (LLVMFuzzerCustomCrossOver).
// Deterministic for a given -seed.
#pragma once
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace vx::fuzz {

struct Token {
  size_t begin, end;
};

inline std::vector<Token> tokens(const uint8_t* d, size_t n) {
  std::vector<Token> out;
  size_t i = 0;
  auto ident = [](uint8_t c) { return std::isalnum(c) || c == '_' || c >= 0x80; };
  while (i < n) {
    size_t b = i;
    uint8_t c = d[i];
    if (std::isspace(c)) {
      while (i < n && std::isspace(d[i])) ++i;
      continue;  // whitespace is kept between tokens, not one
    }
    if (ident(c)) {
      while (i < n && (ident(d[i]) || (d[i] == '.' && i + 1 < n && std::isdigit(d[i + 1])))) ++i;
    } else if (c == '"') {
      ++i;
      while (i < n && d[i] != '"' && d[i] != '\n') i += (d[i] == '\\' && i + 1 < n) ? 2 : 1;
      if (i < n) ++i;
    } else if (c == '/' && i + 1 < n && d[i + 1] == '/') {
      while (i < n && d[i] != '\n') ++i;
    } else {
      static const char* const two[] = {"::", "->", "=>", "==", "!=", "<=", ">=", "&&",
                                        "||", "..", "+=", "-=", "*=", "/=", "<<", ">>"};
      i += 1;
      for (const char* t : two)
        if (b + 1 < n && d[b] == t[0] && d[b + 1] == t[1]) i = b + 2;
    }
    out.push_back({b, i});
  }
  return out;
}

inline size_t token_mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  std::minstd_rand rng(seed);
  if (rng() % 2 == 0 || size == 0) return LLVMFuzzerMutate(data, size, max_size);
  std::vector<Token> t = tokens(data, size);
  if (t.size() < 2) return LLVMFuzzerMutate(data, size, max_size);
  std::string in(reinterpret_cast<char*>(data), size), out;
  auto pick = [&] { return static_cast<size_t>(rng() % t.size()); };
  size_t a = pick(), b = pick();
  if (a > b) std::swap(a, b);
  b = std::min(b, a + 1 + static_cast<size_t>(rng() % 8));  // ranges of up to 9 tokens
  const std::string range = in.substr(t[a].begin, t[b].end - t[a].begin);
  const size_t at = t[pick()].begin;
  switch (rng() % 4) {
    case 0:  // duplicate [a, b] before another token
      out = in.substr(0, at) + range + " " + in.substr(at);
      break;
    case 1:  // delete [a, b]
      out = in.substr(0, t[a].begin) + in.substr(t[b].end);
      break;
    case 2: {  // replace token a by another token of the input
      const Token& r = t[pick()];
      out = in.substr(0, t[a].begin) + in.substr(r.begin, r.end - r.begin) + in.substr(t[a].end);
      break;
    }
    default: {  // move [a, b] elsewhere
      std::string rest = in.substr(0, t[a].begin) + in.substr(t[b].end);
      const size_t to = rest.empty() ? 0 : rng() % rest.size();
      out = rest.substr(0, to) + " " + range + " " + rest.substr(to);
    }
  }
  if (out.size() > max_size) out.resize(max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

inline size_t token_cross_over(const uint8_t* d1, size_t n1, const uint8_t* d2, size_t n2,
                               uint8_t* out, size_t max_out, unsigned seed) {
  std::minstd_rand rng(seed);
  std::vector<Token> t1 = tokens(d1, n1), t2 = tokens(d2, n2);
  if (t1.empty() || t2.empty()) return 0;
  // The first input up to a token, a token range of the second, the first from a later token.
  const size_t cut = rng() % t1.size(), resume = cut + rng() % (t1.size() - cut);
  const size_t a = rng() % t2.size(),
               b = std::min(t2.size() - 1, a + static_cast<size_t>(rng() % 32));
  std::string s(reinterpret_cast<const char*>(d1), t1[cut].begin);
  s += " ";
  s.append(reinterpret_cast<const char*>(d2) + t2[a].begin, t2[b].end - t2[a].begin);
  s += " ";
  s.append(reinterpret_cast<const char*>(d1) + t1[resume].begin, n1 - t1[resume].begin);
  if (s.size() > max_out) s.resize(max_out);
  std::memcpy(out, s.data(), s.size());
  return s.size();
}

}  // namespace vx::fuzz

#define VX_FUZZ_TOKEN_MUTATOR                                                                  \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,       \
                                            unsigned seed) {                                   \
    return vx::fuzz::token_mutate(data, size, max_size, seed);                                 \
  }                                                                                            \
  extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* d1, size_t n1, const uint8_t* d2, \
                                              size_t n2, uint8_t* out, size_t max_out,         \
                                              unsigned seed) {                                 \
    return vx::fuzz::token_cross_over(d1, n1, d2, n2, out, max_out, seed);                     \
  }
