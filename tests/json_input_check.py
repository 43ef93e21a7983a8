#!/usr/bin/env python3
"""Every JSON vx reads goes through support/json_input.cpp (issue 35 items 3 and 4), which refuses
a text nested deeper than its limit before nlohmann::json builds it: `vx diff` of a document whose
value nested 100,000 arrays deep overflowed the stack in nlohmann's recursive copy, and so did a
`vx repl --protocol=jsonl` request whose `id` did. So no other file of src/ may parse JSON itself:

  nlohmann::json::parse(text)     vx::parse_json(text, max_bytes, why)
  json::sax_parse, json::accept   (the same)
  json::from_cbor, from_msgpack…  (the same: none is read today)
  "…"_json, stream >> j           (the same)

usage: json_input_check.py REPO_ROOT
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import lint_sources  # noqa: E402

ALLOWED = os.path.join("src", "support", "json_input.cpp")
FORBIDDEN = [
    re.compile(r"\bjson::(parse|sax_parse|accept|from_(cbor|msgpack|ubjson|bson|bjdata))\s*\("),
    re.compile(r"\"\s*_json(_pointer)?\b"),
    re.compile(r"^\s*[\w:.]+\s*>>\s*[\w.]+\s*;"),  # `in >> j;` (a shift is no statement)
]

MUST_FLAG = ["const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);",
             "request = json::parse(line);", "return json::parse (o.str());",
             "json::sax_parse(in, &handler);", "if (json::accept(s)) {",
             "auto j = json::from_cbor(bytes);", 'auto j = "{}"_json;', "in >> j;"]
MUST_PASS = ["std::optional<json> read = parse_json(line, kMaxRequestBytes, why);",
             "return j.dump(-1, ' ', false, json::error_handler_t::replace);",
             "nlohmann::json vals = nlohmann::json::array();", "x = a >> 3;",
             "boost::optional<x3::forward_ast<Expr>> value;"]


def flags(line):
    code = line.split("//", 1)[0]
    if any(p.search(code) for p in FORBIDDEN):
        return ["JSON parsed outside %s (use vx::parse_json)" % ALLOWED]
    return []


lint_sources("json_input", sys.argv[1], flags, MUST_FLAG, MUST_PASS, allowed=(ALLOWED,))
