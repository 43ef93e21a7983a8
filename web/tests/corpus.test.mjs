// A sample of the conformance corpus in the browser against native vx: every program of the
// sample must print, in the playground's engine, exactly its `.stdout` (worked out by hand, see
// conformance/README.md) and exactly what native `vx run` prints, with the same exit status; a
// refused program must be refused with the (line, code) pairs its `//~ ERROR` markers name.
//   node corpus.test.mjs VX [--every N] [--json OUT]
// --every N takes every Nth program of the sorted list (1: all); --json writes the timings (the
// benchmark, tools/bench/playground).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { serve, launch, openPlayground, rootDir } from "./harness.mjs";

const args = process.argv.slice(2);
const vx = args[0];
const every = Number(args[args.indexOf("--every") + 1] || 0) || 1;
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : null;
if (!vx || !existsSync(vx)) {
  console.error("usage: node corpus.test.mjs VX [--every N] [--json OUT]");
  process.exit(2);
}

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// Programs that run as `vx run FILE` with no flags, environment or input of their own, and whose
// bytes are UTF-8: an editor holds text, so the invalid bytes of errors/E0005_invalid_utf8.vx
// can never reach the page's engine.
const corpus = join(rootDir, "conformance");
const utf8 = new TextDecoder("utf-8", { fatal: true });
const all = walk(corpus)
  .filter((f) => f.endsWith(".vx"))
  .sort()
  .filter((f) => {
    let text;
    try {
      text = utf8.decode(readFileSync(f));
    } catch {
      return false;
    }
    if (/^\/\/ (run-flags|env|check-only)\b/m.test(text)) return false;
    return existsSync(f.replace(/\.vx$/, ".stdout")) || /\/\/~ ERROR/.test(text);
  });
const sample = all.filter((_, i) => i % every === 0);

function markers(text) {
  const pairs = new Set();
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\/\/~ ERROR (E\d{4})/g)) pairs.add(`${i + 1} ${m[1]}`);
  });
  return [...pairs].sort();
}

const { server, url } = await serve();
const browser = await launch();
const page = await openPlayground(browser, url);
let failures = 0, browserMs = 0, nativeMs = 0;
const timings = [];
for (const file of sample) {
  const name = relative(corpus, file);
  const source = readFileSync(file, "utf8");
  const expectedErrors = markers(source);
  const t0 = process.hrtime.bigint();
  // One host thread, no GPU: the engine the browser has, natively.
  const native = spawnSync(vx, ["run", "--offload=off", "--error-format=json", file], {
    encoding: "utf8",
    env: { ...process.env, VX_HOST_THREADS: "1" },
  });
  const nMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const { answer, ms } = await page.evaluate(async (src) => {
    const started = performance.now();
    const answer = await window.vxRequest({ op: "run", source: src, max_seconds: 60 });
    return { answer, ms: performance.now() - started };
  }, source);
  const problems = [];
  if (answer.error) problems.push(`the engine: ${answer.error}`);
  if (expectedErrors.length) {
    const got = [...new Set((answer.diagnostics ?? []).filter((d) => d.level === "error")
      .map((d) => `${d.spans[0].line_start} ${d.code}`))].sort();
    if (got.join(",") !== expectedErrors.join(","))
      problems.push(`errors ${JSON.stringify(got)}, the markers say ${JSON.stringify(expectedErrors)}`);
    if (native.status !== 1) problems.push(`native vx exited ${native.status} on a refused program`);
  } else {
    const expected = readFileSync(file.replace(/\.vx$/, ".stdout"), "utf8");
    const codeFile = file.replace(/\.vx$/, ".exitcode");
    const status = existsSync(codeFile) ? Number(readFileSync(codeFile, "utf8").trim()) : 0;
    if (answer.stdout !== expected) problems.push(`stdout ${JSON.stringify(answer.stdout)}, expected ${JSON.stringify(expected)}`);
    if (answer.stdout !== native.stdout) problems.push(`stdout differs from native vx's ${JSON.stringify(native.stdout)}`);
    if (answer.status !== status || native.status !== status)
      problems.push(`exit status ${answer.status} (native ${native.status}), expected ${status}`);
    browserMs += ms;
    nativeMs += nMs;
    timings.push({ program: name, browser_ms: ms, native_ms: nMs });
  }
  if (problems.length) {
    ++failures;
    console.log(`FAIL ${name}: ${problems.join("; ")}`);
  }
}
await browser.close();
server.close();
const ratio = browserMs / nativeMs;
console.log(`${sample.length - failures} of ${sample.length} programs agree (every ${every} of ${all.length}); ` +
  `runs: browser ${browserMs.toFixed(0)} ms, native ${nativeMs.toFixed(0)} ms, ratio ${ratio.toFixed(2)}`);
if (jsonOut)
  writeFileSync(jsonOut, JSON.stringify({ programs: timings.length, browser_ms: browserMs, native_ms: nativeMs, ratio, page_load_ms: page.loadMs, timings }, null, 1));
process.exit(failures ? 1 : 0);
