#include "interp/race_check.hpp"

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
  ++phase_;
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
  if (atomic) {
    c.atomic = true;
    return nullptr;  // atomics never race with each other; the checker keeps plain ones apart
  }
  auto collide = [&](const Touch& t, bool both_write, bool second_writes) {
    RaceReport r;
    r.first = t.pass;
    r.second = me;
    r.tensor = tensor;
    r.element = element;
    r.both_write = both_write;
    r.second_writes = second_writes;
    r.where = where;
    report_ = r;
    return &*report_;
  };
  if (c.writer.valid && concurrent(c.writer.pass, me)) return collide(c.writer, write, write);
  // The latest writer and reader stand for the others: an approximation that can miss a
  // collision with an earlier pass, never report one that cannot happen.
  if (write) {
    if (c.reader.valid && concurrent(c.reader.pass, me)) return collide(c.reader, false, true);
    c.writer = {me, true};
  } else {
    c.reader = {me, true};
  }
  return nullptr;
}

}  // namespace vx::interp
