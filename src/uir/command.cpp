// `vx check FILE.uir` and `vx run FILE.uir` (spec/uir.md §6, spec/cli.md): read, check with the
// kernel rules, print the --explain tables, then run. The same exit statuses as for .vx programs:
// 0, 1 (refused), 2 (unreadable), 101 (runtime error).
#include "uir/uir.hpp"

namespace vx::uir {

int uir_command(const std::string& path, UirStage stage, bool explain, ErrorFormat format,
                std::ostream& out, std::ostream& err) {
  std::string read_error;
  auto file = read_source_file(path, read_error);
  if (!file) {
    err << "error: " << read_error << "\n";
    return 2;
  }
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
  return run_uir(*program, out, err);
}

}  // namespace vx::uir
