// The playground in a real browser (headless chromium): a student's session. Each expected value
// is worked out by hand from the program, never read from vx: the racy store `out[8 * b + t]`
// over 8 blocks of 16 lanes is E6032 (rule mixed-radix) at 7:17, and block 0 lane 8 and block 1
// lane 0 both write element 8; with `16 * b + t` every one of the 128 elements is written once
// (sum 128), element 17 by block 1 lane 1; index 32 * b + t reaches 64, past a 64-element
// tensor, first at block 2 lane 0.
import { serve, launch, openPlayground, steps, expect } from "./harness.mjs";

const racy = `#[allow(lanes_not_warp_multiple)]
fn main() {
    let mut out = transfer(Tensor<i32, [128]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..8 across blocks {
            for t in 0..16 across lanes(16) {
                out[8 * b + t] = 1;
            }
        }
    }
    let back = transfer(out, Memory::CPU_DRAM);
    let mut sum = 0;
    for i in 0..128 { sum += back[i]; }
    println!("sum {}", sum);
}
`;
const outOfBounds = `fn main() {
    let mut out = transfer(Tensor<i32, [64]>::fill(0), Memory::HBM);
    spawn on(Topology::Device) {
        for b in 0..4 across blocks {
            for t in 0..32 across lanes(32) {
                let i = 32 * b + t;
                if i < 100 { out[i] = 1; }
            }
        }
    }
}
`;
const endless = `fn main() {
    let mut i: i64 = 0;
    while true { i += 1; }
    println!("{}", i);
}
`;
const hello = `fn main() {
    let mut total = 0;
    for k in 1..101 { total += k; }
    println!("total {}", total);
}
`;

const { server, url } = await serve();
const browser = await launch();
let page;

// Replaces the whole program, as a paste would.
const setProgram = (text) =>
  page.evaluate((t) => {
    const v = window.vxEditor;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
  }, text);
const text = (sel) => page.$eval(sel, (e) => e.textContent);
const waitText = (sel, pattern, timeout = 30000) =>
  page.waitForFunction(
    (s, p) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ""),
    { timeout },
    sel,
    pattern.source,
  );
const run = async () => {
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#run").disabled === false, {
    timeout: 60000,
  });
};

const status = await steps([
  ["the page loads and its engine starts", async () => {
    page = await openPlayground(browser, url);
    expect(/engine ready/.test(await text("#engine-status")), "no `engine ready`");
    expect(/no host threads and no GPU/.test(await text(".note")), "the page does not say there is no GPU");
  }],
  ["typing a racy kernel shows E6032 inline, with its rule", async () => {
    // The program goes in as a paste would, less its store; the student types the store, key by
    // key, at the end of line 7's indentation (the editor closes `[` and types over the `]`).
    await setProgram(racy.replace("out[8 * b + t] = 1;", ""));
    await page.evaluate(() => {
      const v = window.vxEditor;
      v.dispatch({ selection: { anchor: v.state.doc.line(7).to } });
      v.focus();
    });
    await page.keyboard.type("out[8 * b + t] = 1;", { delay: 20 });
    const typed = await page.evaluate(() => window.vxEditor.state.doc.toString());
    expect(typed === racy, `the editor holds:\n${typed}`);
    await page.waitForSelector(".cm-lintRange-error", { timeout: 30000 });
    await waitText("#diagnostics", /error\[E6032\]/);
    const diag = await text("#diagnostics");
    expect(diag.includes("--> playground.vx:7:17"), `E6032 not at 7:17:\n${diag}`);
    expect(diag.includes("rule: mixed-radix"), `no rule in:\n${diag}`);
    expect(diag.includes("block 0 lane 8 and block 1 lane 0 both write element 8"), diag);
    // The inline marker's tooltip: hover the underlined store.
    const range = await page.$(".cm-lintRange-error");
    await range.hover();
    await page.waitForSelector(".cm-tooltip-lint .lint-diagnostic", { timeout: 10000 });
    const tip = await text(".cm-tooltip-lint");
    expect(/error\[E6032\]/.test(tip) && tip.includes("help:"), `tooltip: ${tip}`);
    expect(await page.$eval(".cm-tooltip-lint .lint-diagnostic", (e) => e.dataset.rule) === "mixed-radix", "tooltip rule");
    await page.mouse.move(1, 1);  // the tooltip goes, and with it what it covered
    await page.waitForSelector(".cm-tooltip-lint", { hidden: true, timeout: 10000 });
  }],
  ["the map marks the colliding elements, and names each cell's pass", async () => {
    await page.click('.tabs button[data-tab="map"]');
    await page.waitForSelector("#maps svg g.cell", { timeout: 30000 });
    const cell8 = await page.$eval('#maps g.cell[data-index="8"]', (g) => [g.classList.contains("collides"), g.querySelector("title").textContent]);
    expect(cell8[0], "element 8 is not marked as colliding");
    expect(/element \[8\]: written by block 0, lane 8 and by another pass/.test(cell8[1]), cell8[1]);
    const cell3 = await page.$eval('#maps g.cell[data-index="3"]', (g) => g.classList.contains("collides"));
    expect(!cell3, "element 3 (block 0 lane 3 alone) is marked as colliding");
    expect(/block 0 lane 8 and block 1 lane 0 both write element 8/.test(await text("#maps .map-facts")), "the map names no colliding pair");
  }],
  ["fixing it clears the error", async () => {
    await page.evaluate(() => {
      const v = window.vxEditor;
      const line = v.state.doc.line(7);
      const at = line.from + line.text.indexOf("8 *");
      v.dispatch({ selection: { anchor: at, head: at + 1 } });
      v.focus();
    });
    await page.keyboard.type("16");
    await waitText("#check-status", /no errors/);
    expect((await page.$(".cm-lintRange-error")) === null, "an error marker is left");
  }],
  ["running it prints the output", async () => {
    await run();
    expect((await text("#stdout")) === "sum 128\n", `stdout: ${await text("#stdout")}`);
    expect(/exit status 0/.test(await text("#run-status")), await text("#run-status"));
  }],
  ["the map's tooltip names the pass that writes an element", async () => {
    await page.click('.tabs button[data-tab="map"]');
    await page.waitForSelector('#maps g.cell[data-index="17"]', { timeout: 30000 });
    const tip = await page.$eval('#maps g.cell[data-index="17"] title', (t) => t.textContent);
    expect(tip === "element [17]: written by block 1, lane 1", tip);
    expect((await page.$$("#maps g.cell.collides")).length === 0, "collisions in a proved map");
    expect(/no element is written twice/.test(await text("#maps .map-facts")), "facts");
  }],
  ["the explain tables are shown", async () => {
    await page.click('.tabs button[data-tab="explain"]');
    await waitText("#explain", /digit\s+\|\s+coefficient/);
    const t = await text("#explain");
    expect(/block loop `b` \(line 5\): proved/.test(t), t);
  }],
  ["a runtime error names its block and lane", async () => {
    await setProgram(outOfBounds);
    await run();
    const err = await text("#stderr");
    expect(err.includes("index out of bounds: the len is 64 but the index is 64"), err);
    expect(err.includes("in block 2 lane 0"), err);
    expect(err.includes("--> playground.vx:7:30"), err);
    expect(/exit status 101/.test(await text("#run-status")), await text("#run-status"));
  }],
  ["Stop ends an endless loop and the tab stays responsive", async () => {
    await setProgram(endless);
    await page.$eval("#max-seconds", (e) => (e.value = "0"));
    await page.$eval("#max-steps", (e) => (e.value = "0"));
    await page.click("#run");
    await new Promise((r) => setTimeout(r, 1500));
    expect(/running/.test(await text("#run-status")), "not running");
    // The page answers while the program runs in its worker.
    const t0 = Date.now();
    await page.evaluate(() => document.title);
    expect(Date.now() - t0 < 1000, "the tab is frozen");
    await page.click("#stop");
    await waitText("#stderr", /stopped/, 5000);
    await setProgram(hello);
    await run();
    expect((await text("#stdout")) === "total 5050\n", `after Stop: ${await text("#stdout")} ${await text("#stderr")} ${await text("#run-status")}`);
  }],
  ["the step limit stops a runaway program with a diagnostic", async () => {
    await setProgram(endless);
    await page.$eval("#max-steps", (e) => (e.value = "100000"));
    await run();
    const err = await text("#stderr");
    expect(err.includes("step limit reached: more than 100000 steps"), `stderr: ${err}`);
    expect(err.includes("--> playground.vx:3:5"), `stderr: ${err}`);
    await page.$eval("#max-steps", (e) => (e.value = "1000000000"));
  }],
  ["too deep for the browser's stack: a diagnostic, and the engine goes on", async () => {
    // 5,000 nested calls: past the playground's limit of 500 (the interpreter's own error).
    await setProgram(`fn depth(n: i32) -> i32 {\n    if n == 0 { return 0; }\n    return 1 + depth(n - 1);\n}\nfn main() {\n    println!("{}", depth(5000));\n}\n`);
    await run();
    let err = await text("#stderr");
    expect(err.includes("stack overflow: more than 500 nested calls"), `stderr: ${err}`);
    expect(err.includes("--> playground.vx:3:16"), `stderr: ${err}`);
    // 4,000 additions in one expression: the checker's recursion outruns a worker's stack.
    await setProgram(`fn main() {\n    let x = ${"1 + ".repeat(4000)}1;\n    println!("{}", x);\n}\n`);
    await run();
    err = await text("#stderr");
    expect(/the engine stopped: Maximum call stack size exceeded: this program nests deeper/.test(err), `stderr: ${err}`);
    await setProgram(hello);
    await run();
    expect((await text("#stdout")) === "total 5050\n", `after the trap: ${await text("#stdout")}`);
  }],
  ["an error page is rendered Markdown", async () => {
    await page.select("#error-code", "E6032");
    await page.waitForFunction(() => document.querySelector("#docs h3, #docs h2, #docs p"), { timeout: 10000 });
    const html = await page.$eval("#docs", (e) => e.innerHTML);
    expect(/<code>/.test(html) && /<pre>/.test(html), "no code blocks rendered");
    expect(!/```/.test(html), "raw Markdown fences");
    expect(/E6032/.test(await text("#docs")), "not E6032's page");
  }],
  ["a shared URL opens its program, which runs offline", async () => {
    await setProgram(hello);
    await page.click("#share");
    const shared = await page.evaluate(() => location.hash);
    expect(shared.startsWith("#code="), shared);
    const second = await openPlayground(browser, url, shared);
    const doc = await second.evaluate(() => window.vxEditor.state.doc.toString());
    expect(doc === hello, `the shared program differs: ${doc}`);
    await second.setOfflineMode(true);
    page = second;
    await run();
    expect((await text("#stdout")) === "total 5050\n", `shared: ${await text("#stdout")}`);
    // Offline, Stop starts a fresh engine from memory.
    await setProgram(endless);
    await page.$eval("#max-seconds", (e) => (e.value = "0"));
    await page.$eval("#max-steps", (e) => (e.value = "0"));
    await page.click("#run");
    await new Promise((r) => setTimeout(r, 500));
    await page.click("#stop");
    await setProgram(hello);
    await run();
    expect((await text("#stdout")) === "total 5050\n", "offline after Stop");
  }],
  ["a lesson question is decided by the checker", async () => {
    const value = await page.$$eval("#examples option", (os) => os.find((o) => /Check yourself 2/.test(o.textContent)).value);
    await page.select("#examples", value);
    await page.waitForSelector("#lesson .answer button");
    const [valid] = await page.$$("#lesson .answer button");
    await valid.click();
    await waitText("#lesson .verdict", /Right/);
    expect(page.errors.length === 0, `page errors: ${page.errors.join("; ")}`);
  }],
]);

await browser.close();
server.close();
process.exit(status);
