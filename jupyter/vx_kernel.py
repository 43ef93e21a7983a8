#!/usr/bin/python3
"""The Jupyter kernel for Vx: a notebook in front of `vx repl --protocol=jsonl` (spec/cli.md §7.7).

The kernel runs one `vx repl --protocol=jsonl` as a child and sends it each cell as one request;
the reply's parts become the cell's outputs: program output on stdout, diagnostics (rendered with
the source line and its `^^^`) on stderr, the value of a final expression as the cell's result,
`:check`'s digit tables as HTML tables, SVG documents (`:map`) as images. An interrupt from the
notebook reaches the kernel as SIGINT (interrupt_mode "signal") and is passed on to the child,
which stops the running input as Ctrl-C does in the terminal. Which vx runs is the kernelspec's
environment variable VX_KERNEL_VX (tools/jupyter-install writes it); VX_KERNEL_OFFLOAD, when set,
is its `--offload` (spec/offload.md).

    python3 vx_kernel.py -f CONNECTION_FILE        run the kernel (what kernel.json says)
    python3 vx_kernel.py --write-spec DIR --vx VX  write kernel.json into DIR
"""
import html
import json
import os
import signal
import subprocess
import sys

KERNEL_NAME = "vx"
DISPLAY_NAME = "Vx"


def kernel_spec(vx):
    """The kernelspec: this file run by this Python, with `vx` as the vx to run."""
    return {
        "argv": [sys.executable, os.path.abspath(__file__), "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "vx",
        "interrupt_mode": "signal",
        # The second keeps ipykernel's debugger (debugpy) from warning on every start.
        "env": {"VX_KERNEL_VX": os.path.abspath(vx), "PYDEVD_DISABLE_FILE_VALIDATION": "1"},
    }


def explain_html(table):
    """One store's digit tables (a reply's "tables" entry) as HTML, as `vx check --explain`."""
    e = html.escape
    parts = [
        f'<div class="vx-explain"><p>line {table["line"]}: store <code>{e(table["store"])}</code>'
        f', offset <code>{e(table["offset"] or "(not readable)")}</code></p>'
    ]
    for loop in table["loops"]:
        head = f'{e(loop["level"])} loop <code>{e(loop["var"])}</code> (line {loop["line"]}): '
        if loop.get("private"):
            parts.append(f"<p>{head}<code>{e(table['tensor'])}</code> is made in this loop, "
                         "so each pass writes its own</p>")
            continue
        proof = loop["proof"]
        if proof["result"] == "not_digits":
            parts.append(f"<p>{head}not proved: the offset is not a sum of digits: "
                         f"{e(proof.get('why', ''))}</p>")
            continue
        parts.append(f"<p>{head}<b>{'proved' if loop['proved'] else 'not proved'}</b></p>")
        rows = "".join(
            "<tr>" + "".join(
                f"<td>{e(str(cell) if cell is not None else 'unbounded')}"
                f"{'  (parallel)' if i == 0 and digit['parallel'] else ''}</td>"
                for i, cell in enumerate(row)) + "</tr>"
            for row, digit in zip(loop["rows"], proof["digits"]))
        heads = "".join(f"<th>{e(c)}</th>" for c in loop["columns"])
        parts.append(f"<table><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>")
        checks = [(c["holds"], c["text"]) for c in proof["comparisons"]]
        verb = "determine it" if proof["determined"] else "do not determine it"
        checks.append((proof["determined"], f"the digits of `{loop['var']}` {verb}"))
        if proof["result"] == "wraps":
            checks.append((False, f"no wrapping: {proof.get('why', '')}"))
        if loop.get("different_index"):
            checks.append((False, f"the same index everywhere: {loop['different_index']}"))
        items = "".join(f"<li>{'ok' if ok else '<b>FAILS</b>'} {e(text)}</li>"
                        for ok, text in checks)
        if loop.get("collision"):
            items += f"<li>for example: {e(loop['collision'])}</li>"
        parts.append(f"<ul>{items}</ul>")
    parts.append("</div>")
    return "".join(parts)


class VxSession:
    """The child `vx repl --protocol=jsonl` and its requests, one at a time."""

    def __init__(self, vx):
        self.vx = vx
        self.child = None
        self.next_id = 0

    def start(self):
        # A session of its own, so that only the kernel's forwarding (one SIGINT) reaches it.
        offload = os.environ.get("VX_KERNEL_OFFLOAD")
        args = [self.vx, "repl", "--protocol=jsonl"] + ([f"--offload={offload}"] if offload else [])
        self.child = subprocess.Popen(args,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      start_new_session=True)

    def alive(self):
        return self.child is not None and self.child.poll() is None

    def request(self, **fields):
        """Sends a request, returns its reply; None when the child ended without one."""
        if not self.alive():
            self.start()
        self.next_id += 1
        fields["id"] = self.next_id
        try:
            self.child.stdin.write(json.dumps(fields).encode() + b"\n")
            self.child.stdin.flush()
            while True:
                line = self.child.stdout.readline()
                if not line:
                    return None
                reply = json.loads(line)
                if reply.get("id") == self.next_id:
                    return reply
        except (BrokenPipeError, ValueError):
            return None

    def interrupt(self):
        if self.alive():
            os.kill(self.child.pid, signal.SIGINT)

    def stop(self):
        if self.child is None:
            return
        try:
            self.child.stdin.close()
            self.child.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.child.kill()
            self.child.wait()
        self.child = None


def error_of(reply):
    """The `error` of a reply that failed, as Jupyter's messages carry one (ename, evalue,
    traceback), or None: ename is the first error's code (E0001, E6032), `RuntimeError` for a
    runtime error (code null), `KeyboardInterrupt` for an interrupted input, `VxError` for a
    command's error on stderr; evalue its message; traceback the rendered text of every error,
    line by line, as rustc prints them."""
    if reply["status"] == "interrupted":
        first = next((d for d in reply["diagnostics"] if d["level"] == "error"), None)
        return {"ename": "KeyboardInterrupt", "evalue": first["message"] if first else
                "interrupted", "traceback": (first["rendered"] if first else "").splitlines()}
    if reply["status"] != "error":
        return None
    errors = [d for d in reply["diagnostics"] if d["level"] == "error"]
    if not errors:
        text = reply["stderr"].strip()
        first_line = next((l for l in text.splitlines() if l.startswith("error")), text)
        return {"ename": "VxError", "evalue": first_line.removeprefix("error: "),
                "traceback": text.splitlines()}
    first = errors[0]
    ename = first["code"] or ("RuntimeError" if first["message"].startswith("runtime error")
                              else "VxError")
    return {"ename": ename, "evalue": first["message"],
            "traceback": "".join(d["rendered"] for d in errors).rstrip("\n").splitlines()}


def make_kernel_class():
    from ipykernel.kernelbase import Kernel

    class VxKernel(Kernel):
        implementation = "vx"
        implementation_version = "1.0"
        language = "vx"
        language_version = "1"
        language_info = {
            "name": "vx",
            "mimetype": "text/x-vx",
            "file_extension": ".vx",
            "codemirror_mode": "rust",  # the closest highlighting: Vx's syntax follows Rust's
            "pygments_lexer": "rust",
        }
        banner = "Vx: statements, expressions, items and kernels; :help lists the commands"

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.vx = VxSession(os.environ.get("VX_KERNEL_VX", "vx"))
            self.vx.start()
            # The notebook's interrupt (a SIGINT to the kernel) is the child's: passed on, at any
            # time, instead of ipykernel's KeyboardInterrupt while a request is handled.
            signal.signal(signal.SIGINT, lambda signum, frame: self.vx.interrupt())

        def pre_handler_hook(self):
            pass  # keeps the SIGINT handler above

        def post_handler_hook(self):
            pass

        def stream(self, name, text):
            if text:
                self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

        def display(self, data):
            self.send_response(self.iopub_socket, "display_data", {"data": data, "metadata": {}})

        def do_execute(self, code, silent, store_history=True, user_expressions=None,
                       allow_stdin=False):
            reply = self.vx.request(code=code)
            if reply is None:
                status = self.vx.child.poll() if self.vx.child else None
                self.vx.stop()
                why = (f"the vx session ended (exit status {status}); the next cell starts a "
                       "new one, without the bindings and items of this one")
                return self.error_reply("VxSessionEnded", why)
            if not silent:
                self.show(reply)
            error = error_of(reply)
            if error is None:
                return {"status": "ok", "execution_count": self.execution_count, "payload": [],
                        "user_expressions": {}}
            # An `error` message on IOPub, as IPython sends for an exception: JupyterLab shows
            # it as an error, and nbconvert, nbgrader and nbclient read its ename.
            if not silent:
                self.send_response(self.iopub_socket, "error", error)
            return {"status": "error", "execution_count": self.execution_count, **error}

        def show(self, reply):
            self.stream("stdout", reply["stdout"])
            self.stream("stderr", reply["stderr"])
            # Errors go in the `error` message (error_of); warnings and notes stay on stderr.
            rendered = "".join(d["rendered"] for d in reply["diagnostics"]
                               if d["level"] != "error")
            self.stream("stderr", rendered)
            for table in reply["tables"]:
                self.display({"text/html": explain_html(table), "text/plain": table["rendered"]})
            for svg in reply["svg"]:
                # Also as HTML: `nbconvert --to html` passes an image/svg+xml output through its
                # HTML sanitizer, which drops every <rect> and <title>; the SVG inline in HTML
                # (ranked before SVG) keeps the picture and its tooltips.
                self.display({"image/svg+xml": svg, "text/html": svg,
                              "text/plain": "(an SVG image)"})
            if reply["value"] is not None:
                self.send_response(self.iopub_socket, "execute_result", {
                    "execution_count": self.execution_count,
                    "data": {"text/plain": reply["text"].rstrip("\n")},
                    "metadata": {"vx": {"value": reply["value"], "type": reply["type"]}},
                })

        def error_reply(self, ename, evalue):
            self.send_response(self.iopub_socket, "error",
                               {"ename": ename, "evalue": evalue, "traceback": [evalue]})
            return {"status": "error", "execution_count": self.execution_count,
                    "ename": ename, "evalue": evalue, "traceback": [evalue]}

        def do_is_complete(self, code):
            reply = self.vx.request(op="is_complete", code=code)
            if reply is None:
                return {"status": "unknown"}
            if reply["complete"]:
                return {"status": "complete"}
            return {"status": "incomplete", "indent": "    "}

        def do_complete(self, code, cursor_pos):
            data = code.encode()
            at = len(code[:cursor_pos].encode())
            reply = self.vx.request(op="complete", code=code, cursor=at)
            if reply is None:
                return {"status": "ok", "matches": [], "cursor_start": cursor_pos,
                        "cursor_end": cursor_pos, "metadata": {}}
            start = len(data[:reply["cursor_start"]].decode(errors="replace"))
            return {"status": "ok", "matches": reply["matches"], "cursor_start": start,
                    "cursor_end": cursor_pos, "metadata": {}}

        def do_shutdown(self, restart):
            self.vx.stop()
            return {"status": "ok", "restart": restart}

    return VxKernel


def main(argv):
    if argv[:1] == ["--write-spec"]:
        if len(argv) != 4 or argv[2] != "--vx":
            sys.exit("usage: vx_kernel.py --write-spec DIR --vx VX")
        os.makedirs(argv[1], exist_ok=True)
        with open(os.path.join(argv[1], "kernel.json"), "w") as f:
            json.dump(kernel_spec(argv[3]), f, indent=2)
            f.write("\n")
        return
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=make_kernel_class(), argv=argv)


if __name__ == "__main__":
    main(sys.argv[1:])
