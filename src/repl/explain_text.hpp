// `vx explain CODE` on a terminal and `:explain CODE` (spec/cli.md §7, §8): the Markdown of an
// entry of spec/errors.md, read with cmark and laid out for a terminal. Headings (and the entry's
// first line) stay one line, bold with colour; paragraphs and list items are filled to the width;
// a link is its text, `**bold**` bold with colour; inline code keeps its backticks, or without
// them is coloured; a fenced block is indented by four columns, its test markers
// `//~ ERROR E0300` written `// error[E0300]`.
#pragma once
#include <string>

namespace vx::repl {

std::string terminal_text(const std::string& markdown, bool color, size_t width = 80);

}  // namespace vx::repl
