// Vx highlighting for CodeMirror 6: a stream tokenizer over the language's lexical grammar
// (spec/grammar.md §1): the reserved words of src/parse/grammar_def.hpp, the words that are
// special only where they stand (`blocks`, `lanes`, `on`, `struct`), scalar types, numbers,
// strings, comments, and the `name!` macros.
import { StreamLanguage } from "@codemirror/language";

const keywords = new Set([
  "fn", "pub", "const", "import", "let", "mut", "if", "else", "while", "loop", "for", "in",
  "across", "return", "break", "continue", "spawn", "unsafe", "as", "match", "struct",
]);
const atoms = new Set(["true", "false"]);
const special = new Set(["blocks", "lanes", "on"]);
const types = new Set([
  "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64", "bool",
  "Tensor", "Memory", "Topology", "Ordering",
]);

export const vxLanguage = StreamLanguage.define({
  name: "vx",
  startState: () => ({ comment: 0 }),
  token(stream, state) {
    if (state.comment > 0) {
      while (!stream.eol()) {
        if (stream.match("*/")) {
          if (--state.comment === 0) break;
        } else if (stream.match("/*")) {
          ++state.comment;
        } else {
          stream.next();
        }
      }
      return "comment";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("/*")) {
      state.comment = 1;
      return "comment";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
    if (stream.match(/^'(?:[^'\\]|\\.)'/)) return "string";
    if (stream.match(/^(?:0x[0-9a-fA-F_]+|0b[01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)(?:[iuf](?:8|16|32|64))?/))
      return "number";
    if (stream.match(/^#!?\[[^\]]*\]/)) return "meta";
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word) {
      const w = word[0];
      if (stream.peek() === "!") {
        stream.next();
        return "macroName";
      }
      if (keywords.has(w)) return "keyword";
      if (atoms.has(w)) return "atom";
      if (special.has(w)) return "keyword";
      if (types.has(w)) return "typeName";
      if (/^[A-Z]/.test(w)) return "typeName";
      return "variableName";
    }
    if (stream.match(/^(?:->|=>|::|\.\.=?|[-+*\/%&|^<>=!]=?|&&|\|\||<<|>>)/)) return "operator";
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: "//", block: { open: "/*", close: "*/" } } },
});
