#!/usr/bin/env python3
"""Writes the tables in docs/ that a bench prints, from the bench's own `--json` output, so the pages
cannot drift from what the bench measured.

A table sits between `<!-- table:NAME -->` and `<!-- /table:NAME -->` in docs/accuracy.md or
docs/performance.md. Each is rendered from one saved bench document, docs/bench-json/BENCH.json,
which is what `tiltkit bench BENCH … --json` printed (its machine line included).

    python3 scripts/docs-tables.py                  # rewrite every table from the saved JSON
    python3 scripts/docs-tables.py --check          # only report tables that differ from their JSON (exit 1)
    python3 scripts/docs-tables.py --run accuracy   # run the bench again (saving its JSON), then rewrite
    python3 scripts/docs-tables.py --run fusion --tiltkit .build/release/tiltkit

--run takes a saved document's name (accuracy, fusion, pull, gestures, gestures-pushes) and may be repeated; each bench's command is in
BENCHES below, and the caption under each table repeats it with the machine the JSON names.
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAVED = ROOT / "docs" / "bench-json"
PAGES = [ROOT / "docs" / "accuracy.md", ROOT / "docs" / "performance.md"]

# The command each saved document comes from (`tiltkit` is the binary given by --tiltkit), and
# whether it is the bench's brief mode. Accuracy does not depend on the machine or the build; the
# timing benches want a release build on a quiet machine.
BENCHES = {
    "accuracy": ["bench", "accuracy", "--data", "../shared/data", "--peers", "vqf,imufusion",
                 "--hard-iron", "0.1,0.3,1,2,5", "--soft-iron"],
    "fusion": ["bench", "fusion"],
    "pull": ["bench", "pull"],
    "gestures": ["bench", "gestures", "--data", "../shared/data", "--thresholds", "0.6,0.8,0.9,1,1.1,1.2,1.5"],
    "gestures-pushes": ["bench", "gestures", "--data", "../shared/data", "--labels", "Assets/gestures/push-labels.csv"],
}


def fixed(value, places=2):
    if value is None or isinstance(value, str):
        return "—"
    return f"{value:.{places}f}"


def ratio(value):
    return "—" if value is None else f"{value:.2f}×"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def caption(document, bench):
    machine = document["machine"]
    load = machine.get("loadAverage")
    on = f"{machine['cpu']}, {machine['cores']} cores, {machine['build']} build" + (f", load {load:.2f}" if load is not None else "")
    quick = " (`--quick`: the brief mode, figures rough)" if document.get("quick") else ""
    command = " ".join(["tiltkit"] + BENCHES[bench] + ["--json"])
    return f"_`{command}`{quick} on {on}; saved in `docs/bench-json/{bench}.json`._"


# Accuracy (BROAD's metric, RMS degrees; `bench accuracy`).

def accuracy_broad(document):
    """One row per filter: the 9D total from its 9-axis run, inclination and heading-corrected total
    from its 6-axis run (BROAD's own summary)."""
    report = document["report"]
    mean = report["broadMean"]
    rows = [["**Tiltkit**", f"**{fixed(mean['total9D'])}**", f"**{fixed(mean['inclination6D'])}**",
             f"**{fixed(mean['totalHeadingCorrected6D'])}**"]]
    if "total9DWithoutGyroDelay" in mean:
        rows.append(["Tiltkit at its defaults (no gyro delay)", fixed(mean["total9DWithoutGyroDelay"]), "—",
                     fixed(mean["totalHeadingCorrected6DWithoutGyroDelay"])])
    filters = {}
    for peer in report["peerMeans"]:
        name = peer["filter"].replace(" 9D", "").replace(" 6D", "")
        filters.setdefault(name, {})[peer["axes"]] = peer
    for name, runs in filters.items():
        nine, six = runs.get(9), runs.get(6)
        rows.append([name, fixed(nine and nine.get("total")), fixed(six and six["inclination"]),
                     fixed(six and six["totalHeadingCorrected"])])
    packages = ", ".join(f"{name} {version}" for name, version in sorted(report["peerPackages"].items()))
    missing = "; ".join(f"{name}: {why}" for name, why in sorted(report["peersMissing"].items()))
    notes = (f"RMS degrees, mean of {len(report['broad'])} trials at {report['variant']}: the 9D total with the magnetometer, "
             "inclination and heading-corrected total of the 6D run; the first row and the \"+ gyro delay\" row are given "
             "BROAD's 2.1 ms gyro delay, the others run at their defaults; every row measured in this run")
    notes += f" (peer packages: {packages})" if packages else ""
    notes += f"; not run: {missing}" if missing else ""
    return table(["filter", "total (9D)", "inclination", "heading-corrected total (6D)"], rows), notes + "."


def accuracy_broad_trials(document):
    """Per trial, like for like: Tiltkit and VQF both given BROAD's gyro delay, then both at their defaults."""
    report = document["report"]
    rows = []
    for row in report["broad"] + [dict(report["broadMean"], trial="mean")]:
        vqf9, vqf6 = row.get("vqfDelayedTotal9D"), row.get("vqfDelayedTotalHeadingCorrected6D")
        plain9, plain6 = row.get("vqfTotal9D"), row.get("vqfTotalHeadingCorrected6D")
        rows.append([row["trial"], fixed(row["total9D"]), fixed(vqf9), ratio(vqf9 and row["total9D"] / vqf9),
                     fixed(row["totalHeadingCorrected6D"]), fixed(vqf6),
                     ratio(vqf6 and row["totalHeadingCorrected6D"] / vqf6),
                     ratio(plain9 and row["total9DWithoutGyroDelay"] / plain9),
                     ratio(plain6 and row["totalHeadingCorrected6DWithoutGyroDelay"] / plain6)])
    return table(["trial", "Tiltkit 9D", "VQF 9D", "× VQF", "Tiltkit 6D", "VQF 6D", "× VQF",
                  "9D × VQF, defaults", "6D × VQF, defaults"], rows), \
        ("6D: the heading-corrected total. Both filters given BROAD's gyro delay (VQF's output turned by the same "
         "rate × delay), then, in the last two columns, both at their defaults.")


def accuracy_broad_ablation(document):
    mean = document["report"]["broadMean"]
    rows = [["Tiltkit as it is", fixed(mean["total9D"]), fixed(mean["inclination6D"]), fixed(mean["totalHeadingCorrected6D"])],
            ["without the gyro scale estimate", fixed(mean["total9DWithoutScale"]), fixed(mean["inclination6DWithoutScale"]),
             fixed(mean["totalHeadingCorrected6DWithoutScale"])],
            ["without the cross-axis allowance", fixed(mean["total9DWithoutCrossAxis"]), fixed(mean["inclination6DWithoutCrossAxis"]),
             fixed(mean["totalHeadingCorrected6DWithoutCrossAxis"])]]
    return table(["BROAD mean, RMS degrees", "total (9D)", "inclination (6D)", "heading-corrected total (6D)"], rows), ""


def accuracy_coremotion(document):
    rows = [[row["file"], f"{row['samples']:,}", f"{fixed(row['fusionMedian'])} / {fixed(row['fusionP95'])}",
             f"{fixed(row['accelerometerOnlyMedian'])} / {fixed(row['accelerometerOnlyP95'])}"]
            for row in document["report"]["traces"]]
    return table(["recording", "samples", "fusion, median / p95", "accelerometer only, median / p95"], rows), \
        "Angle between Tiltkit's gravity and Core Motion's own, degrees, after the first 2 s."


def accuracy_magnet_curve(document):
    """Per distortion: Tiltkit and VQF, each given BROAD's gyro delay, on the same altered trials."""
    rows_in = document["report"].get("magnetCurve", [])
    if not rows_in:
        raise SystemExit("docs/bench-json/accuracy.json has no magnet curve: run it with --run accuracy")

    vqf = {row["distortion"]: row for row in rows_in if row["filter"] == "VQF 9D + gyro delay"}
    rows = []
    for row in rows_in:
        if row["filter"] != "Tiltkit 9D + gyro delay":
            continue
        peer = vqf.get(row["distortion"])
        ratios = row.get("ratioToVQF")
        worst = max(range(len(ratios)), key=lambda i: ratios[i]) if ratios else None
        # "|m|" would end the table's cell
        rows.append([row["distortion"].replace("|", "\\|"), fixed(statistics.median(row["total9D"])), fixed(peer and statistics.median(peer["total9D"])),
                     ratio(ratios and statistics.median(ratios)),
                     ratio(ratios and ratios[worst]) + (f" ({row['trials'][worst]})" if ratios else "")])
    return table(["iron riding along", "Tiltkit 9D, median", "VQF 9D, median", "× VQF, median", "× VQF, worst trial"], rows), \
        (f"9D total over {len(rows_in[0]['trials'])} trials, RMS degrees; each hard-iron strength run along "
         f"{max(row.get('directions', 1) for row in rows_in)} directions (three at right angles, each both ways) and a "
         "trial's figure the RMS over them; both given BROAD's gyro delay; × VQF per trial, then its median and worst.")


# The cart game's gestures (`bench gestures`).

def ms(seconds):
    """Seconds as whole milliseconds; "-" where the bench had none."""
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def gestures(document, names=("jump", "duck")):
    score = document["report"]["score"]

    rows = []
    for name in names:
        g = score[name]
        if not g["labels"]:
            continue
        rows.append([name, str(g["labels"]), str(g["found"]), str(g["fires"]), str(g["unjudged"]), f"{g['precision']:.3f}",
                     f"{g['recall']:.3f}", f"{ms(g.get('medianLatency'))} / {ms(g.get('p90Latency'))} ms"])
    quiet = [f"{score[fires]} in {score[seconds]:.0f} s of {what}" for fires, seconds, what in
             (("rollFires", "rollSeconds", "rolling"), ("walkFires", "walkSeconds", "walking, jogging and stairs"))
             if score[seconds] > 0]
    unjudged = sum(score[name]["unjudged"] for name in ("jump", "duck"))
    minutes = score["recordedSeconds"] / 60
    notes = ((f"False fires: {', '.join(quiet)}. " if quiet else "")
             + f"Fires no label judges: {unjudged} in {minutes:.1f} min of recordings ({unjudged / minutes:.2f} per minute). "
             + f"{len(document['report']['recordings'])} recordings scored.")
    return table(["gesture", "labels", "found", "fires", "unjudged", "precision", "recall",
                  "latency from the truth's onset, median / p90"], rows), notes


def gestures_curve(document):
    curve = document["report"]["curve"]

    rows = []
    for point in curve["points"]:
        for name in ("jump", "duck"):
            g = point[name]
            rows.append([f"×{point['factor']:g}", name, f"{g['threshold']:g}", f"{g['precision']:.3f}", f"{g['recall']:.3f}",
                         str(g["fires"]), str(g["unjudged"]), f"{ms(g.get('medianLatency'))} / {ms(g.get('p90Latency'))} ms",
                         "yes" if g["meetsAims"] else "no"])
    return table(["thresholds", "gesture", "threshold", "precision", "recall", "fires", "unjudged",
                  "latency from the onset, median / p90", "meets the aims"], rows), \
        ("Thresholds in rad/s (jump) and g (duck, the turning duck's scaled with it); ×1 is the game's setting. "
         "Aims: precision ≥ 0.95 with latency ≤ 60 ms median and ≤ 150 ms p90.")


# Performance (`bench fusion`, `bench pull`).

def fusion(document):
    report = document["report"]
    rows = []
    for group in ("baseline", "estimators", "compact", "peers", "push"):
        entries = report[group] if isinstance(report[group], list) else [report[group]]
        for row in entries:
            rows.append([row["estimator"], fixed(row["medianNanosecondsPerSample"], 1),
                         fixed(row["minNanosecondsPerSample"], 1), ratio(row["ratioToBaseline"])])
    targets = "".join(f"\n- {t['name']}: {t['measured']}, {'met' if t['met'] else 'NOT met'}" for t in report["targets"])
    notes = (f"{report['samples']:,} samples, median and min of {report['runs']} runs, CPU time of the measuring thread "
             "(push: of the process). Ratios are to the plain loop over the same input: compact rows and x-io Fusion's "
             "to the plain loop over compact readings.")
    return table(["", "median ns/sample", "min ns/sample", "× plain loop"], rows), notes + (f" Targets, as the bench checks them:{targets}\n\n" if targets else "")


def pull(document):
    report = document["report"]
    rows = []
    for s in report["scenarios"]:
        if s["consumer"] != "tight loop" or s["producerRate"] not in ("1 kHz", "none"):
            continue
        cost, publish = s["pullCost"], s.get("producerPublishP999")
        rows.append([s["variant"], fixed(cost["p50"], 1), fixed(cost["p99"], 1), fixed(cost["p999"], 1),
                     f"{s['reads']:,}", str(s["tornReads"] + s["outOfOrderReads"]), str(s["allocations"]),
                     fixed(publish / 1000, 1) if publish is not None else "—"])
    manager = report.get("managerPull")
    if manager:
        cost = manager["cost"]
        rows.append(["`MotionManager.latestDeviceMotion`", fixed(cost["p50"], 1), fixed(cost["p99"], 1),
                     fixed(cost["p999"], 1), "", "", str(manager["allocations"]), "—"])
    ages = [f"{s['producerRate']}: {fixed(s['age']['mean'] / 1000, 1)} µs (ideal {fixed(s['idealMeanAge'] / 1000, 1)})"
            for s in report["scenarios"]
            if s["variant"] == "LatestValue (seqlock)" and s["consumer"] == "per frame" and s.get("age") and s.get("idealMeanAge")]
    notes = "ns per pull, tight loop, producer at 1 kHz."
    if ages:
        notes += " Mean age of the sample a 59.94 Hz frame pulls, producer at " + "; ".join(ages) + "."
    return table(["slot", "p50", "p99", "p99.9", "reads", "torn or out of order", "allocations",
                  "producer's publish p99.9, µs"], rows), notes


TABLES = {
    "accuracy-broad": ("accuracy", accuracy_broad),
    "accuracy-broad-trials": ("accuracy", accuracy_broad_trials),
    "accuracy-broad-ablation": ("accuracy", accuracy_broad_ablation),
    "accuracy-coremotion": ("accuracy", accuracy_coremotion),
    "accuracy-magnet-curve": ("accuracy", accuracy_magnet_curve),
    "fusion": ("fusion", fusion),
    "pull": ("pull", pull),
    "gestures": ("gestures", gestures),
    "gestures-curve": ("gestures", gestures_curve),
    "gestures-pushes": ("gestures-pushes", gestures),
}


def run_bench(bench, tiltkit):
    command = [tiltkit] + BENCHES[bench] + ["--json"]
    print("docs-tables: running " + " ".join(command), file=sys.stderr)
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, check=True, text=True)
    json.loads(result.stdout)  # a bench that printed something else is refused before it is saved
    SAVED.mkdir(parents=True, exist_ok=True)
    (SAVED / f"{bench}.json").write_text(result.stdout, encoding="utf-8")


def render(name):
    bench, renderer = TABLES[name]
    path = SAVED / f"{bench}.json"
    if not path.exists():
        return None
    document = json.loads(path.read_text(encoding="utf-8"))
    body, notes = renderer(document)
    return "\n".join(part for part in (body, "", notes + (" " if notes and not notes.endswith("\n") else "") + caption(document, bench)) if part is not None)


def rewrite(page, check, missing):
    """Rewrites every known table of the page (unless `check`); returns the names that changed and
    appends to `missing` the tables whose JSON is not saved."""
    text = page.read_text(encoding="utf-8")
    changed = []
    for name in TABLES:
        start, end = f"<!-- table:{name} -->", f"<!-- /table:{name} -->"
        if start not in text:
            continue
        if end not in text:
            sys.exit(f"docs-tables: {page.relative_to(ROOT)}: {start} without {end}")
        rendered = render(name)
        if rendered is None:
            missing.append(f"{page.relative_to(ROOT)}: table {name} has no docs/bench-json/{TABLES[name][0]}.json "
                           f"(make it with --run {TABLES[name][0]})")
            continue
        before, rest = text.split(start, 1)
        old, after = rest.split(end, 1)
        new = "\n" + rendered + "\n"
        if old != new:
            changed.append(name)
            text = before + start + new + end + after
    if changed and not check:
        page.write_text(text, encoding="utf-8")
    return changed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report tables that differ from their JSON; write nothing")
    parser.add_argument("--run", action="append", default=[], choices=sorted(BENCHES), metavar="BENCH",
                        help="run this bench first and save its JSON (" + ", ".join(BENCHES) + ")")
    parser.add_argument("--tiltkit", default=None, help="the tiltkit binary (default .build/release/tiltkit, else .build/debug/tiltkit)")
    args = parser.parse_args()
    tiltkit = args.tiltkit or next((str(ROOT / p) for p in (".build/release/tiltkit", ".build/debug/tiltkit") if (ROOT / p).exists()), None)
    for bench in args.run:
        if tiltkit is None:
            sys.exit("docs-tables: no tiltkit binary; build it or pass --tiltkit")
        run_bench(bench, tiltkit)
    stale, missing = [], []
    for page in PAGES:
        for name in rewrite(page, args.check, missing):
            stale.append(f"{page.relative_to(ROOT)}: table {name} " + ("differs from its JSON" if args.check else "rewritten"))
    print("\n".join(stale + missing) if stale or missing else "docs-tables: every table matches its JSON")
    return 1 if missing or (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
