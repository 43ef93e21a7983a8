#include "pipeline/params.hpp"

#include "support/internal_error.hpp"

namespace vx::params {

std::vector<Param> of(const tir::Function& fn) {
  std::vector<Param> out;
  for (size_t k = 0; k < fn.param_slots.size();) {
    const int slot = fn.param_slots[k];
    const std::string& local = fn.slot_names[static_cast<size_t>(slot)];
    Param p;
    p.name = local.substr(0, local.find('.'));
    if (auto aggregate = fn.aggregates.find(slot); aggregate != fn.aggregates.end()) {
      p.type = aggregate->second.type;
      p.slots = aggregate->second.leaves;
    } else {
      p.type = fn.slot_types[static_cast<size_t>(slot)];
      p.slots = {slot};
    }
    k += p.slots.size();
    out.push_back(std::move(p));
  }
  return out;
}

const Type* returned_aggregate(const tir::Function& fn) {
  if (fn.ret_slots.size() <= fn.write_back_from.size()) return nullptr;
  return &must_find(fn.aggregates, fn.ret_slots.front()).type;
}

std::string signature(const tir::Function& fn) {
  std::string s = "fn(";
  for (const Param& p : of(fn)) s += (s.size() > 3 ? ", " : "") + p.name + ": " + type_name(p.type);
  s += ")";
  const Type* aggregate = returned_aggregate(fn);
  const Type& ret = aggregate ? *aggregate : fn.ret;
  if (ret.kind != TypeKind::Unit) s += " -> " + type_name(ret);
  return s;
}

}  // namespace vx::params
