"""The results folder (spec/smith.md §7): the report as JSON, every finding's program (and its
reduction) as a file, and findings.md with the commands that reproduce each finding, quoted for
the shell, on the implementation that the run named."""

import json
import os
import re
import shlex

from . import report as rpt, run as R

SMITH = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "smith"))


def smith_command(config, *args):
    """`tools/smith/smith` with the run's configuration (vx, --impl, --gpu, --no-uir, --no-nvrtc)
    and args."""
    argv = [SMITH, "--vx", config["vx"]]
    if config.get("impl"):
        argv += ["--impl", config["impl"]]
    if config.get("gpu"):
        argv += ["--gpu", config["gpu"]]
    if not config.get("uir", True):
        argv.append("--no-uir")
    if not config.get("nvrtc", True):
        argv.append("--no-nvrtc")
    return shlex.join(argv + list(args))


def tiers_of(config):
    return R.Tiers(config["vx"], impl=shlex.split(config["impl"]) if config.get("impl") else None)


def reproduce(config, f, folder):
    """The commands that show a finding again, each exiting 1 while it holds (`by_hand`: the two
    runs to compare, where a tier is one command)."""
    path = os.path.join(folder, f["file"])
    if f["kind"] == "mutant":
        return {"seed": smith_command(config, "--mutants", "--seed", str(f["seed"]), "--count", "1", "-j", "1"),
                "by_hand": [shlex.join([config["vx"], "check", path])]}
    small = os.path.join(folder, f["reduced"]["file"]) if f.get("reduced") else path
    tiers = sorted({t["tier"] for t in f["tiers"]})
    out = {"file": smith_command(config, "--file", small, "--tiers", ",".join(tiers)),
           "seed": smith_command(config, "--seed", str(f["seed"]), "--count", "1", "-j", "1", "--results",
                                 os.path.join(folder, "seed-%d" % f["seed"]))}
    t = tiers_of(config)
    hand = [t.shell("reference", small)] + [t.shell(n, small) for n in tiers if n != "reference"]
    if all(hand):
        out["by_hand"] = hand
    return out


def _markdown(config, f):
    if f["kind"] == "mutant":
        kind = {"unsound": "soundness: vx check accepts a collision",
                "wrongly-accepted": "vx accepts a program that breaks a rule",
                "invalid": "refused with another code than its family's (or its control refused)"}.get(
            f["verdict"], "the oracle (collision: %s) and --check-races (%s) disagree" % (f.get("collides"),
                                                                                        f.get("check_races")))
        head = "race mutant %d (%s): %s" % (f["seed"], f.get("class"), kind)
        body = [f.get("witness") or f.get("why", ""), "", "Program: `%s`" % f["file"], ""]
    else:
        head = "program seed %d: %s" % (f["seed"], ", ".join("%s (%s)" % tuple(s) for s in f["signature"]))
        body = ["- %s: %s" % (t["tier"], t["why"]) for t in f["tiers"]] + [""]
        red = f.get("reduced")
        if red:
            body += ["Reduced to %s (`%s`; the whole program: `%s`)%s:" % (
                rpt.plural(red["lines"], "line"), red["file"], f["file"],
                ", where it gives" if red.get("tiers") else ""), ""]
            body += ["- %s: %s" % (t["tier"], t["why"]) for t in red.get("tiers", [])]
            body += ["", "```rust", red["program"].rstrip("\n"), "```", ""]
        else:
            body += ["Program: `%s` (%s)" % (f["file"], rpt.plural(f["program"].count("\n"), "line")), ""]
            if f.get("reduce_error"):
                body += ["The reducer failed on it (a bug of smith):", "", "```", f["reduce_error"].rstrip(), "```", ""]
    rep = f.get("reproduce", {})
    cmds = [rep[k] for k in ("file", "seed") if k in rep]
    body += ["Reproduce (exit status 1 while the finding holds):", "", "```sh"] + cmds + ["```", ""]
    if rep.get("by_hand"):
        body += ["By hand (the reference, then the tier%s):" % ("s" if len(rep["by_hand"]) > 2 else ""), "",
                 "```sh"] + rep["by_hand"] + ["```", ""]
    return "## %s\n\n%s" % (head, "\n".join(body))


def write(rep, folder, json_path=None, findings_path=None, quiet=False):
    """Write the report and the findings; return the paths written."""
    folder = os.path.abspath(folder)
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):  # the programs of an earlier run into the same folder
        if re.fullmatch(r"(program-\d+(\.min)?|mutant-\d+)\.vx", name):
            os.remove(os.path.join(folder, name))
    for f in rep["failures"]:
        with open(os.path.join(folder, f["file"]), "w") as out:
            out.write(f.get("program", ""))
        if f.get("reduced"):
            with open(os.path.join(folder, f["reduced"]["file"]), "w") as out:
                out.write(f["reduced"]["program"])
        f["reproduce"] = reproduce(rep["config"], f, folder)
    rep["run"]["results"] = folder
    json_path = json_path or os.path.join(folder, "report.json")
    write_json(rep, json_path)
    written = [json_path]
    findings_path = findings_path or os.path.join(folder, "findings.md")
    if rep["failures"] or os.path.exists(findings_path):
        with open(findings_path, "w") as out:
            out.write("# smith findings\n\n%s against the reference `vx run --offload=off` (VX_HOST_THREADS=1) "
                      "of %s%s.\n\n" % (rpt.plural(len(rep["failures"]), "finding"), config_text(rep["config"]),
                                        "" if rep["failures"] else " (none)"))
            for f in rep["failures"]:
                out.write(_markdown(rep["config"], f) + "\n")
        written.append(findings_path)
    return written


def write_json(rep, path):
    with open(path, "w") as out:
        json.dump(rep, out, indent=1)
        out.write("\n")


def config_text(config):
    text = "`%s`" % config["vx"]
    if config.get("impl"):
        text += "; the implementation `%s`" % config["impl"]
    return text
