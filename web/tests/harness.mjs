// What the browser tests share: a static server for web/dist/ on a free local port (the page is
// static, as tools/playground serves it), Debian's chromium, headless, driven by puppeteer-core,
// and a page opened on the playground with its engine ready.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

export const webDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const rootDir = dirname(webDir);
const dist = join(webDir, "dist");
const types = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
};

export async function serve() {
  if (!existsSync(join(dist, "vx_engine.wasm")))
    throw new Error("web/dist/ is not built: run tools/playground --build-only");
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    const file = join(dist, path === "/" ? "index.html" : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

export async function launch() {
  const executablePath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
  if (!executablePath) throw new Error("no chromium: tools/setup installs Debian's");
  return puppeteer.launch({
    executablePath,
    headless: true,
    // --no-sandbox: CI runs as root, where chromium's sandbox cannot start.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

// A page on the playground (`hash`: a fragment such as `#code=…`), its engine loaded.
export async function openPlayground(browser, url, hash = "") {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.errors = errors;
  const started = Date.now();
  await page.goto(url + hash, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
  page.loadMs = Date.now() - started;
  return page;
}

// A tiny test runner: named steps in order, each reported; the first failure ends the run.
export async function steps(list) {
  let n = 0;
  for (const [name, body] of list) {
    const t = Date.now();
    try {
      await body();
    } catch (e) {
      console.log(`FAIL ${name}: ${e.stack || e}`);
      return 1;
    }
    console.log(`ok   ${name} (${Date.now() - t} ms)`);
    ++n;
  }
  console.log(`${n} steps passed`);
  return 0;
}

export function expect(cond, what) {
  if (!cond) throw new Error(what);
}
