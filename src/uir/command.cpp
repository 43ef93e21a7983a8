// `vx check FILE.uir` and `vx run FILE.uir` (spec/uir.md §6, spec/cli.md): read, check with the
// kernel rules, print the --explain tables, then run. The same exit statuses as for .vx programs:
// 0, 1 (refused), 2 (unreadable), 101 (runtime error).
#include "uir/uir.hpp"

namespace vx::uir {

int uir_command(const std::string& path, UirStage stage, bool explain, ErrorFormat format,
                std::ostream& out, std::ostream& err, int64_t max_steps, double max_seconds) {
  int status = 0;
  auto file = read_source_or_report(path, err, format, status);
  if (!file) return status;
  Diagnostics diags(file);
  auto program = read_uir(file, diags);
  if (!program) {
    emit_diagnostics(err, diags, format);
    return 1;
  }
  if (stage == UirStage::Read) return 0;
  std::vector<kr::StoreExplain> explained;
  if (!check_uir(*program, diags, explain ? &explained : nullptr)) {
    emit_diagnostics(err, diags, format);
    return 1;
  }
  if (explain) kr::emit_explain(out, *file, explained, format);
  if (stage == UirStage::Check) return 0;
  return run_uir(*program, out, err, nullptr, format, max_steps, max_seconds);
}

}  // namespace vx::uir
