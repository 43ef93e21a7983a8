// The playground's timings against native vx (tools/bench/playground/run writes them down):
// - workloads: the host benchmark's six programs (tools/bench/host/vx, at that benchmark's sizes)
//   in the page's engine and in native `vx run` on one host thread with --offload=off (the engine
//   a browser has), each the best of REPS;
// - the corpus: every conformance program that runs without flags, summed, in both.
// Native times are wall times of a process; a process's start (an empty program's run, the best
// of 9) is also given subtracted, since the page's engine is already running.
//   node bench.mjs VX OUT.json [--reps N]
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { serve, launch, openPlayground, rootDir } from "./harness.mjs";

const [vx, out] = process.argv.slice(2);
const reps = Number(process.argv[process.argv.indexOf("--reps") + 1] || 0) || 3;
const workloads = {
  scale: { ROWS: 1024, COLS: 16384 },
  gelu: { BLOCKS: 24576, N: 6291456 },
  rowsums: { ROWS: 4096 },
  histogram: { BLOCKS: 65536, N: 16777216 },
  layernorm: { ROWS: 4096 },
  softmax: { ROWS: 4096 },
};
const tmp = mkdtempSync(join(tmpdir(), "vx-bench-"));

function nativeMs(file) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(vx, ["run", "--offload=off", file], {
    encoding: "utf8",
    env: { ...process.env, VX_HOST_THREADS: "1" },
  });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout, status: r.status };
}
const best = (xs) => Math.min(...xs);

const { server, url } = await serve();
const browser = await launch();
const page = await openPlayground(browser, url);
const inPage = (source) =>
  page.evaluate(async (src) => {
    const started = performance.now();
    const answer = await window.vxRequest({ op: "run", source: src });
    return { ms: performance.now() - started, stdout: answer.stdout, status: answer.status };
  }, source);

const empty = join(tmp, "empty.vx");
writeFileSync(empty, "fn main() {}\n");
const processMs = best(Array.from({ length: 9 }, () => nativeMs(empty).ms));

const results = {};
for (const [name, params] of Object.entries(workloads)) {
  let text = readFileSync(join(rootDir, "tools", "bench", "host", "vx", `${name}.vx`), "utf8");
  for (const [k, v] of Object.entries(params)) text = text.replaceAll(`@${k}@`, String(v));
  const file = join(tmp, `${name}.vx`);
  writeFileSync(file, text);
  const native = [], web = [];
  let agree = true;
  for (let i = 0; i < reps; ++i) {
    const n = nativeMs(file), b = await inPage(text);
    native.push(n.ms);
    web.push(b.ms);
    agree &&= n.stdout === b.stdout && n.status === b.status;
  }
  results[name] = {
    params,
    browser_ms: best(web),
    native_ms: best(native),
    ratio: best(web) / best(native),
    ratio_without_process_start: best(web) / (best(native) - processMs),
    same_output: agree,
  };
  console.log(`${name.padEnd(10)} browser ${best(web).toFixed(0).padStart(6)} ms  native ${best(native).toFixed(0).padStart(6)} ms  ` +
    `ratio ${results[name].ratio.toFixed(2)} (${results[name].ratio_without_process_start.toFixed(2)} without the process start)${agree ? "" : "  OUTPUTS DIFFER"}`);
}
const sum = (k) => Object.values(results).reduce((s, r) => s + r[k], 0);
const summary = {
  browser_ms: sum("browser_ms"),
  native_ms: sum("native_ms"),
  ratio: sum("browser_ms") / sum("native_ms"),
  ratio_without_process_start: sum("browser_ms") / (sum("native_ms") - processMs * Object.keys(results).length),
};
console.log(`workloads: ratio ${summary.ratio.toFixed(2)}, ${summary.ratio_without_process_start.toFixed(2)} without the process start (${processMs.toFixed(1)} ms)`);
await browser.close();
server.close();
writeFileSync(out, JSON.stringify({ page_load_ms: page.loadMs, process_start_ms: processMs, workloads: results, workloads_total: summary }, null, 1));
