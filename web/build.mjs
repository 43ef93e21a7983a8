// Builds the playground into web/dist/ (tools/playground runs it): the page's script bundled by
// esbuild with CodeMirror and marked (no CDN: the page works offline), the worker, the engine
// (vx_engine.js and .wasm from the emscripten build folder given as the first argument), and the
// examples: the book chapter's programs (conformance/book, with the outputs the book gives) and
// the lesson's exercises (web/lesson/lesson.json).
//   node build.mjs BUILD_WASM_DIR
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = dirname(fileURLToPath(import.meta.url));
const root = dirname(web);
const engineDir = process.argv[2];
if (!engineDir || !existsSync(join(engineDir, "vx_engine.wasm"))) {
  console.error("usage: node build.mjs BUILD_WASM_DIR (the folder with vx_engine.js and .wasm)");
  process.exit(2);
}
const dist = join(web, "dist");
mkdirSync(dist, { recursive: true });

// The book chapter first (seed 000), then the blog post's programs (seed 002), in the order of
// conformance/book/README.md.
function bookExamples() {
  const dir = join(root, "conformance", "book");
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  const files = readdirSync(dir).filter((f) => f.endsWith(".vx"));
  const order = (f) => {
    const at = readme.indexOf(f);
    return at < 0 ? Infinity : at;
  };
  files.sort((a, b) => order(a) - order(b));
  return files.map((f) => {
    const source = readFileSync(join(dir, f), "utf8");
    const stdout = join(dir, f.replace(/\.vx$/, ".stdout"));
    const firstComment = /^\/\/\s*(.*)$/m.exec(source);
    return {
      title: f.replace(/\.vx$/, "").replace(/_/g, " "),
      summary: firstComment ? firstComment[1] : "",
      source,
      expected: existsSync(stdout) ? readFileSync(stdout, "utf8") : null,
    };
  });
}

function lessonExamples() {
  const lesson = JSON.parse(readFileSync(join(web, "lesson", "lesson.json"), "utf8"));
  return {
    title: lesson.title,
    items: lesson.items.map((item) => ({
      ...item,
      source: readFileSync(join(web, "lesson", item.file), "utf8"),
    })),
  };
}

const examples = [{ title: "The book: parallel code on a GPU", items: bookExamples() }, lessonExamples()];

const examplesPlugin = {
  name: "examples",
  setup(b) {
    b.onResolve({ filter: /^\.\/examples\.json$/ }, () => ({ path: "examples", namespace: "vx" }));
    b.onLoad({ filter: /.*/, namespace: "vx" }, () => ({
      contents: JSON.stringify(examples),
      loader: "json",
    }));
  },
};

await build({
  entryPoints: [join(web, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: join(dist, "main.js"),
  plugins: [examplesPlugin],
  logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) copyFileSync(join(web, f), join(dist, f));
copyFileSync(join(web, "src", "worker.js"), join(dist, "worker.js"));
for (const f of ["vx_engine.js", "vx_engine.wasm"]) copyFileSync(join(engineDir, f), join(dist, f));
console.log(`web/dist: the playground (${examples.reduce((n, g) => n + g.items.length, 0)} examples)`);
