// The page's side of the engine's workers (worker.js). The WebAssembly module is compiled once,
// the loader's and the worker's texts fetched once, all kept in memory (the worker's as a blob
// URL): a worker is then started, or started again after Stop, with no network and no
// recompilation.
let shared = null;

export async function loadEngine(base = "") {
  const started = performance.now();
  const [module, loader, worker] = await Promise.all([
    WebAssembly.compileStreaming(fetch(`${base}vx_engine.wasm`)),
    fetch(`${base}vx_engine.js`).then((r) => r.text()),
    fetch(`${base}worker.js`).then((r) => r.blob()),
  ]);
  shared = { module, loader, workerUrl: URL.createObjectURL(worker) };
  return performance.now() - started;
}

// One worker and its pending requests. `terminate` ends it at once, whatever it is running (a
// runaway program), and answers its pending requests as stopped.
export class EngineWorker {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.worker = new Worker(shared.workerUrl);
    this.worker.onmessage = (event) => {
      const { id, answer } = event.data;
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      p(answer);
    };
    this.ready = this.send({}, { module: shared.module, loader: shared.loader });
  }

  send(request, init) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage(init ? { id, init } : { id, request });
    });
  }

  async request(request) {
    await this.ready;
    return this.send(request);
  }

  terminate() {
    this.worker.terminate();
    for (const resolve of this.pending.values()) resolve({ stopped: true });
    this.pending.clear();
  }
}
