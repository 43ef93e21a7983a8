#include "interp/race_check.hpp"

#include <algorithm>

#include "support/pass_name.hpp"

namespace vx::interp {

std::string PassId::describe() const {
  std::vector<int64_t> blocks, lanes;
  for (const auto& [level, v] : loops) (level == PassLevel::Block ? blocks : lanes).push_back(v);
  std::string name = pass_name(blocks, lanes);
  if (lanes.empty()) name += name.empty() ? "(block code)" : " (block code)";
  return name;
}

std::string RaceReport::message() const {
  std::string e = "element " + std::to_string(element) + " of `" + tensor + "`";
  if (both_write) return first.describe() + " and " + second.describe() + " both write " + e;
  if (second_writes)
    return first.describe() + " reads " + e + " and " + second.describe() + " writes it";
  return first.describe() + " writes " + e + " and " + second.describe() + " reads it";
}

void RaceRecorder::enter_region() {
  std::lock_guard<std::mutex> lock(mu_);
  cells_.clear();
  open_.clear();
  phase_ = 0;
}

void RaceRecorder::leave_region() {
  std::lock_guard<std::mutex> lock(mu_);
  cells_.clear();
}

void RaceRecorder::enter_pass(const void* loop, PassLevel level, int64_t index) {
  std::lock_guard<std::mutex> lock(mu_);
  if (level == PassLevel::Block) phase_ = 0;
  open_.push_back({loop, {level, index}});
}

void RaceRecorder::leave_pass(const void* loop) {
  std::lock_guard<std::mutex> lock(mu_);
  while (!open_.empty()) {
    bool found = open_.back().first == loop;
    open_.pop_back();
    if (found) break;
  }
}

void RaceRecorder::end_phase() {
  std::lock_guard<std::mutex> lock(mu_);
  // A lane loop inside another is one 2-D block of lanes with it: only the outermost lane loop
  // ends at the barrier.
  for (const auto& o : open_)
    if (o.second.first == PassLevel::Lane) return;
  ++phase_;
}

namespace {

// The values of the block loops of a pass, and of its lane loops.
size_t block_depth(const PassId& p) {
  size_t i = 0;
  while (i < p.loops.size() && p.loops[i].first == PassLevel::Block) ++i;
  return i;
}
bool same_block(const PassId& a, const PassId& b) {
  size_t n = block_depth(a);
  return n == block_depth(b) && std::equal(a.loops.begin(), a.loops.begin() + n, b.loops.begin());
}

}  // namespace

void RaceRecorder::Touches::add(const PassId& p) {
  // Older phases of p's block are never concurrent with a later pass of it, and the block's
  // newest passes stand for it against other blocks.
  std::erase_if(kept, [&](const PassId& k) { return same_block(k, p) && k.phase < p.phase; });
  size_t blocks = 0, lanes = 0;
  bool block_kept = false;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (kept[i] == p) return;
    bool first_of_block = true;
    for (size_t j = 0; j < i; ++j)
      if (same_block(kept[j], kept[i])) first_of_block = false;
    if (first_of_block) ++blocks;
    if (same_block(kept[i], p)) {
      block_kept = true;
      ++lanes;
    }
  }
  if (block_kept ? lanes < 2 : blocks < 2) kept.push_back(p);
}

const PassId* RaceRecorder::Touches::concurrent_with(const PassId& p) const {
  for (const PassId& k : kept)
    if (concurrent(k, p)) return &k;
  return nullptr;
}

bool RaceRecorder::concurrent(const PassId& a, const PassId& b) {
  // The block part of both: different blocks run at the same time, whatever the phase.
  size_t i = 0;
  for (; i < a.loops.size() && i < b.loops.size(); ++i) {
    if (a.loops[i].first != PassLevel::Block || b.loops[i].first != PassLevel::Block) break;
    if (a.loops[i].second != b.loops[i].second) return true;
  }
  // One block: its lanes meet only within one phase; block code runs once per block.
  if (a.phase != b.phase) return false;
  for (size_t j = i; j < a.loops.size() && j < b.loops.size(); ++j)
    if (a.loops[j] != b.loops[j]) return true;
  return false;
}

const RaceReport* RaceRecorder::access(const void* buffer, const std::string& tensor,
                                       int64_t element, bool write, bool atomic, Span where) {
  std::lock_guard<std::mutex> lock(mu_);
  if (report_) return &*report_;
  PassId me;
  for (const auto& o : open_) me.loops.push_back(o.second);
  me.phase = phase_;
  Cell& c = cells_[{buffer, element}];
  auto collide = [&](const PassId& first, bool both_write, bool second_writes) {
    RaceReport r;
    r.first = first;
    r.second = me;
    r.tensor = tensor;
    r.element = element;
    r.both_write = both_write;
    r.second_writes = second_writes;
    r.where = where;
    report_ = r;
    return &*report_;
  };
  // Two accesses collide when their passes run at the same time, at least one writes, and not
  // both are atomic.
  const Touches* against[] = {&c.writers, write ? &c.readers : nullptr,
                              atomic ? nullptr : &c.atomic_writers,
                              atomic || !write ? nullptr : &c.atomic_readers};
  for (const Touches* t : against) {
    if (!t) continue;
    if (const PassId* other = t->concurrent_with(me)) {
      bool other_writes = t == &c.writers || t == &c.atomic_writers;
      return collide(*other, write && other_writes, write);
    }
  }
  if (atomic)
    (write ? c.atomic_writers : c.atomic_readers).add(me);
  else
    (write ? c.writers : c.readers).add(me);
  return nullptr;
}

}  // namespace vx::interp
