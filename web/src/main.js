// The playground page (web/README.md): the editor, inline diagnostics as you type, Run and Stop,
// the output, the explain tables, the write map, the error pages, the examples, and sharing a
// program in the URL. The engine runs in two workers: one checks as you type, the other runs
// programs, so that Stop can end a runaway program (terminating that worker) and the editor
// goes on being checked meanwhile.
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { marked } from "marked";
import { vxLanguage } from "./vx-language.js";
import { loadEngine, EngineWorker } from "./engine-client.js";
import { drawMap } from "./map.js";
import examples from "./examples.json";

const $ = (id) => document.getElementById(id);
const state = { checker: null, runner: null, running: false, lastCheck: null };

// --- Byte offsets (the engine's spans) to the editor's UTF-16 positions ----------------------
function byteToPos(text, byte) {
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    if (bytes >= byte) return i;
    const cp = text.codePointAt(i);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp >= 0x10000 ? 2 : 1;
  }
  return text.length;
}

// --- Sharing: the program in the URL's fragment, as base64url of its UTF-8 ------------------
export function encodeProgram(text) {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decodeProgram(code) {
  const s = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}
function programFromUrl() {
  const m = /[#&]code=([A-Za-z0-9_-]*)/.exec(location.hash);
  if (!m) return null;
  try {
    return decodeProgram(m[1]);
  } catch {
    return null;
  }
}

// --- Diagnostics as you type ---------------------------------------------------------------
function severityOf(level) {
  return level === "error" ? "error" : level === "warning" ? "warning" : "info";
}

function lintMessage(d) {
  const head = `${d.level}${d.code ? `[${d.code}]` : ""}: ${d.message}`;
  const lines = [head];
  if (d.rule) lines.push(`rule: ${d.rule}`);
  for (const n of d.notes || []) lines.push(`note: ${n}`);
  for (const h of d.helps || []) lines.push(`help: ${h}`);
  return lines.join("\n");
}

function toLint(view, d) {
  const text = view.state.doc.toString();
  const primary = d.spans.find((s) => s.is_primary) || d.spans[0];
  const from = byteToPos(text, primary.byte_start);
  const to = Math.max(from, byteToPos(text, primary.byte_end));
  return {
    from,
    to,
    severity: severityOf(d.level),
    source: d.code || d.lint || "vx",
    message: lintMessage(d),
    renderMessage() {
      const box = document.createElement("div");
      box.className = "lint-diagnostic";
      box.dataset.code = d.code || "";
      box.dataset.rule = d.rule || "";
      const pre = document.createElement("pre");
      pre.textContent = d.rendered;
      box.append(pre);
      if (d.code) {
        const a = document.createElement("a");
        a.href = "#";
        a.textContent = `What is ${d.code}?`;
        a.onclick = (e) => {
          e.preventDefault();
          showErrorPage(d.rule || d.code);
        };
        box.append(a);
      }
      return box;
    },
  };
}

const vxLinter = linter(
  async (view) => {
    if (!state.checker) return [];  // the engine is loading: main() lints once it is ready
    const source = view.state.doc.toString();
    const answer = await state.checker.request({ op: "check", source });
    if (answer.stopped || answer.error) return [];
    state.lastCheck = { source, answer };
    showDiagnostics(answer.diagnostics);
    return answer.diagnostics.filter((d) => d.spans && d.spans.length).map((d) => toLint(view, d));
  },
  { delay: 300 },
);

function showDiagnostics(diagnostics) {
  const box = $("diagnostics");
  box.textContent = "";
  const errors = diagnostics.filter((d) => d.level === "error").length;
  const warnings = diagnostics.filter((d) => d.level === "warning").length;
  $("check-status").textContent =
    errors === 0 && warnings === 0
      ? "✓ checked: no errors"
      : `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  $("check-status").className = errors ? "bad" : warnings ? "warn" : "good";
  for (const d of diagnostics) {
    const pre = document.createElement("pre");
    pre.className = `diag ${d.level}`;
    pre.dataset.code = d.code || "";
    pre.textContent = d.rendered + (d.rule ? `  (rule: ${d.rule})\n` : "");
    box.append(pre);
  }
}

// --- Run and Stop --------------------------------------------------------------------------
function setRunning(on) {
  state.running = on;
  $("run").disabled = on;
  $("stop").disabled = !on;
  $("run-status").textContent = on ? "running…" : "";
}

async function run() {
  if (state.running) return;
  const source = editor.state.doc.toString();
  const maxSteps = Number($("max-steps").value) || 0;
  const maxSeconds = Number($("max-seconds").value) || 0;
  setRunning(true);
  selectTab("output");
  $("stdout").textContent = "";
  $("stderr").textContent = "";
  const started = performance.now();
  const answer = await state.runner.request({
    op: "run",
    source,
    explain: true,
    map: true,
    max_steps: maxSteps,
    max_seconds: maxSeconds,
  });
  setRunning(false);
  if (answer.stopped) {
    $("stderr").textContent = "stopped: the program was ended by Stop\n";
    $("run-status").textContent = "stopped";
    return;
  }
  if (answer.error) {
    $("stderr").textContent = `${answer.error}\n`;
    return;
  }
  const ms = performance.now() - started;
  $("stdout").textContent = answer.stdout ?? "";
  let err = "";
  if (!answer.ok) {
    err = answer.diagnostics.map((d) => d.rendered).join("\n");
    $("run-status").textContent = "refused by the checker";
  } else {
    err = answer.stderr ?? "";
    $("run-status").textContent = `exit status ${answer.status} · ${ms.toFixed(0)} ms`;
  }
  $("stderr").textContent = err;
  $("stderr").classList.toggle("runtime-error", !!answer.runtime_error);
  showExplain(answer);
  showMaps(answer);
}

function stop() {
  if (!state.running) return;
  state.runner.terminate();
  state.runner = new EngineWorker();
  setRunning(false);
}

// --- Explain tables and maps ---------------------------------------------------------------
function showExplain(answer) {
  $("explain").textContent =
    answer.explain_text ??
    "The checker did not reach the kernel rules (see the diagnostics), so there are no tables.";
}

function showMaps(answer) {
  const box = $("maps");
  box.textContent = "";
  const maps = answer.maps ?? [];
  if (!maps.length) {
    box.textContent = answer.ok === false && !answer.maps
      ? "No maps: the checker refused the program before the kernel rules."
      : "No stores in across loops, so there is nothing to map.";
    return;
  }
  for (const m of maps) box.append(drawMap(m));
}

async function checkWithTables() {
  const source = editor.state.doc.toString();
  const answer = await state.checker.request({ op: "check", source, explain: true, map: true });
  if (answer.stopped || answer.error) return;
  showDiagnostics(answer.diagnostics);
  showExplain(answer);
  showMaps(answer);
  return answer;
}

// --- Error pages ---------------------------------------------------------------------------
async function showErrorPage(code) {
  selectTab("docs");
  const answer = await state.checker.request({ op: "explain", code });
  $("docs").innerHTML = answer.markdown
    ? marked.parse(answer.markdown)
    : `<p>${(answer.error || "no page").replace(/</g, "&lt;")}</p>`;
  $("docs").dataset.code = code;
}

async function listErrorPages() {
  const answer = await state.checker.request({ op: "codes" });
  const select = $("error-code");
  for (const code of answer.codes ?? []) {
    const option = document.createElement("option");
    option.value = option.textContent = code;
    select.append(option);
  }
}

// --- Examples and the lesson's questions ---------------------------------------------------
function setProgram(text) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}

function showExamples() {
  const select = $("examples");
  for (const group of examples) {
    const g = document.createElement("optgroup");
    g.label = group.title;
    group.items.forEach((item, i) => {
      const option = document.createElement("option");
      option.value = `${examples.indexOf(group)}/${i}`;
      option.textContent = item.title;
      g.append(option);
    });
    select.append(g);
  }
  select.onchange = () => {
    const [g, i] = select.value.split("/").map(Number);
    const item = examples[g]?.items[i];
    if (!item) return;
    setProgram(item.source);
    showLesson(item);
  };
}

// A question of the lesson: the student predicts, the checker (and the run) decides.
function showLesson(item) {
  const box = $("lesson");
  box.textContent = "";
  if (!item.question) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const q = document.createElement("div");
  q.innerHTML = marked.parse(item.question);
  box.append(q);
  const form = document.createElement("div");
  form.className = "answer";
  const result = document.createElement("p");
  result.className = "verdict";
  for (const choice of item.choices) {
    const b = document.createElement("button");
    b.textContent = choice.label;
    b.onclick = async () => {
      const decided = await decide(item);
      const right = decided.key === choice.key;
      result.className = `verdict ${right ? "good" : "bad"}`;
      result.textContent = `${right ? "Right" : "Not quite"}: ${decided.why}`;
      if (item.explanation) {
        const more = document.createElement("div");
        more.innerHTML = marked.parse(item.explanation);
        result.append(more);
      }
    };
    form.append(b);
  }
  box.append(form, result);
}

// What vx says of the program in the editor, in the terms of the question's choices.
async function decide(item) {
  if (item.decide === "grid") return decideGrid(item);
  const answer = await checkWithTables();
  if (item.decide === "verdict") {
    const e6032 = answer.diagnostics.find((d) => d.code === "E6032");
    return answer.ok
      ? { key: "accepted", why: "the kernel rules prove this kernel race-free (see Explain)." }
      : {
          key: "refused",
          why: `vx refuses it${e6032 ? ` with E6032 (rule ${e6032.rule})` : ""}: ${
            answer.diagnostics.find((d) => d.level === "error")?.message ?? ""
          }`,
        };
  }
  // "largest": the largest value of the digit the question names, from the explain tables.
  for (const note of answer.explain ?? [])
    for (const check of note.data?.checks ?? [])
      for (const digit of check.proof?.digits ?? [])
        if (digit.digit === item.digit)
          return { key: String(digit.largest), why: `the table gives ${item.digit} the largest value ${digit.largest}.` };
  return { key: "", why: `the tables have no digit ${item.digit}.` };
}

// The exercise "make these loops a grid": the editor's program must be accepted, have a block
// loop of item.blocks passes around a lane loop of item.lanes lanes, and print what the plain
// loops of the exercise print.
async function decideGrid(item) {
  const source = editor.state.doc.toString();
  const [mine, plain] = await Promise.all([
    state.checker.request({ op: "run", source, explain: true, max_seconds: 10 }),
    state.checker.request({ op: "run", source: item.source, max_seconds: 10 }),
  ]);
  showExplain(mine);
  const no = (why) => ({ key: "no", why });
  if (!mine.ok) return no("vx refuses the program; the Diagnostics tab says why.");
  const blockLoop = new RegExp(`for\\s+\\w+\\s+in\\s+0\\.\\.${item.blocks}\\s+across\\s+blocks`);
  const laneLoop = new RegExp(`across\\s+lanes\\(\\s*${item.lanes}\\s*\\)`);
  if (!blockLoop.test(source) || !laneLoop.test(source))
    return no(`the loops are not yet ${item.blocks} blocks (\`across blocks\`) of ${item.lanes} threads (\`across lanes(${item.lanes})\`).`);
  const proved = (mine.explain ?? []).some((n) => n.data?.checks?.length === 2);
  if (!proved) return no("the store is not in both an across-blocks and an across-lanes loop.");
  if (mine.stdout !== plain.stdout)
    return no(`it prints ${JSON.stringify(mine.stdout)}, the plain loops ${JSON.stringify(plain.stdout)}.`);
  return { key: "grid", why: `accepted, proved race-free for the blocks and the lanes, and it prints what the plain loops print (${plain.stdout.trim()}).` };
}

// --- Tabs ----------------------------------------------------------------------------------
function selectTab(name) {
  for (const t of document.querySelectorAll(".tabs button"))
    t.classList.toggle("active", t.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== `panel-${name}`;
  if ((name === "map" || name === "explain") && !state.running) checkWithTables();
}

// --- Start ---------------------------------------------------------------------------------
const initial = programFromUrl() ?? examples[0].items[0].source;
const editor = new EditorView({
  parent: $("editor"),
  state: EditorState.create({
    doc: initial,
    extensions: [
      basicSetup,
      vxLanguage,
      vxLinter,
      lintGutter(),
      keymap.of([{ key: "Mod-Enter", run: () => (run(), true) }]),
    ],
  }),
});
window.vxEditor = editor;  // the browser tests type into it

async function main() {
  showExamples();
  let loadMs;
  try {
    loadMs = await loadEngine("");
  } catch (e) {
    $("engine-status").textContent = `the engine did not load: ${e}`;
    return;
  }
  state.checker = new EngineWorker();
  state.runner = new EngineWorker();
  await Promise.all([state.checker.ready, state.runner.ready]);
  const readyMs = performance.now();
  $("engine-status").textContent = `engine ready (${(loadMs).toFixed(0)} ms to load)`;
  document.body.dataset.ready = "true";
  window.vxTimings = { engineLoadMs: loadMs, readyMs };
  forceLinting(editor);
  listErrorPages();
  $("run").onclick = run;
  $("stop").onclick = stop;
  $("share").onclick = () => {
    location.hash = `code=${encodeProgram(editor.state.doc.toString())}`;
    navigator.clipboard?.writeText(location.href).catch(() => {});
    $("run-status").textContent = "the link to this program is in the address bar";
  };
  $("error-code").onchange = () => showErrorPage($("error-code").value);
  for (const t of document.querySelectorAll(".tabs button")) t.onclick = () => selectTab(t.dataset.tab);
  window.addEventListener("hashchange", () => {
    const text = programFromUrl();
    if (text !== null && text !== editor.state.doc.toString()) setProgram(text);
  });
  // The engine itself, for the corpus test and the benchmark (web/tests/corpus.test.mjs).
  window.vxRequest = (request) => state.runner.request(request);
}
main();
