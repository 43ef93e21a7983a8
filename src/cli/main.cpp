#include <iostream>
#include "parse/parser.hpp"
int main(int argc, char** argv) {
  std::string err;
  auto file = vx::read_source_file(argv[1], err);
  vx::Diagnostics diags(file);
  auto p = vx::parse_program(*file, diags);
  vx::emit_diagnostics(std::cerr, diags, vx::ErrorFormat::Human);
  std::cout << (p ? "parsed " + std::to_string(p->program.items.size()) + " items\n" : "failed\n");
  return p ? 0 : 1;
}
