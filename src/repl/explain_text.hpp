// `:explain CODE` (spec/cli.md §7): the Markdown of an entry of spec/errors.md, rendered for a
// terminal. Headings stay one line (bold with colour); paragraphs and list items are filled to the
// width; `[text](link)` becomes `text`, `**bold**` bold (with colour) or plain; inline code keeps
// its backticks, or without them is coloured; a fenced block is indented by four columns, its
// test markers `//~ ERROR E0300` written `// error[E0300]`. Internal to src/repl.
#pragma once
#include <string>

namespace vx::repl {

std::string terminal_text(const std::string& markdown, bool color, size_t width = 80);

}  // namespace vx::repl
