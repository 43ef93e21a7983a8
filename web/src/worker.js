// The engine's Web Worker: one instance of vx compiled to WebAssembly (web/engine/engine.cpp).
// The page hands it the compiled WebAssembly.Module and the engine's loader text once, so that a
// worker started after Stop needs no network (the page works offline once loaded). Each message
// {id, request} is answered {id, answer}; a trap in the engine (its stack overflowed, say) is
// answered as an error and the instance is replaced by a fresh one.
let engine = null;
let makeEngine = null;
let wasmModule = null;

// A fresh instance of the engine on the module already compiled.
function instantiate() {
  return makeEngine({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(wasmModule, imports).then((instance) => done(instance, wasmModule));
      return {};
    },
  });
}

async function start(module, loaderText) {
  // The loader (emscripten's MODULARIZE output) defines createVxEngine.
  makeEngine = new Function(`${loaderText}\nreturn createVxEngine;`)();
  wasmModule = module;
  engine = await instantiate();
}

function request(req) {
  const text = JSON.stringify(req);
  const bytes = engine.lengthBytesUTF8(text) + 1;
  const ptr = engine._malloc(bytes);
  engine.stringToUTF8(text, ptr, bytes);
  const out = engine._vx_request(ptr);
  engine._free(ptr);
  const answer = JSON.parse(engine.UTF8ToString(out));
  engine._vx_free(out);
  return answer;
}

self.onmessage = async (event) => {
  const { id, init, request: req } = event.data;
  if (init) {
    try {
      await start(init.module, init.loader);
      self.postMessage({ id, answer: { ready: true } });
    } catch (e) {
      self.postMessage({ id, answer: { error: `the engine did not start: ${e}` } });
    }
    return;
  }
  try {
    self.postMessage({ id, answer: request(req) });
  } catch (e) {
    // A trap leaves the instance in no known state: start a fresh one for the next request.
    // The usual trap is the browser's own stack (about 1 MiB for a worker) running out on a
    // deeply nested program, which `vx` on the command line, with 1 GiB, accepts.
    const error =
      e instanceof RangeError
        ? `the engine stopped: ${e.message}: this program nests deeper than a browser's stack allows (\`vx\` on the command line runs it); the engine has been restarted`
        : `the engine stopped: ${e.message || e}; it has been restarted`;
    self.postMessage({ id, answer: { error, trap: true } });
    engine = await instantiate();
  }
};
