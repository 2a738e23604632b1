#!/usr/bin/env python3
"""PNG plots for RESULTS.md with gnuplot (Debian package gnuplot-nox):
start-up time, and the overcommit hand-off and IPI figures.  Reads the
JSON the benchmarks wrote to bench/out/ and writes bench/*.png."""

import json
import os
import statistics
import subprocess

from benchlib import OUT, TOP

PNG = os.path.join(TOP, "bench")


def load(name):
    try:
        with open(os.path.join(OUT, name + ".json")) as f:
            return json.load(f)
    except OSError:
        return None


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")


def gp(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def startup():
    d = load("startup")
    if not d:
        return
    dat = os.path.join(OUT, "startup.dat")
    with open(dat, "w") as f:
        f.write("# label qmp first exit\n")
        for key, r in d.items():
            if key.startswith("_"):
                continue
            label, m = key.split("/")
            name = ("tree" if label == "tree" else "QEMU-7.2") + "-" + m
            f.write(f"{name} {med(r['qmp']):.2f} {med(r['first']):.2f} {med(r['exit']):.2f}\n")
    gp(f"""
set terminal pngcairo size 800,450 font ",10"
set output "{PNG}/startup.png"
set title "Start-up, median ms (log scale; lower is better)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [1:*]
set ylabel "ms"
set grid ytics
set key top left
set xtics rotate by -20
plot "{dat}" using 2:xtic(1) title "exec -> QMP greeting", \\
     "" using 3 title "exec -> first UART byte", \\
     "" using 4 title "exec -> exit (guest powers off)"
""")


def overcommit():
    d = load("guestside")
    if not d:
        return
    variants = []
    ks = set()
    for key in d:
        if key.startswith("_"):
            continue
        v, k = key.split("/")
        if v not in variants:
            variants.append(v)
        ks.add(int(k))
    names = {"tree-8.1": "tree pc-q35-8.1", "tree-8.0": "tree pc-q35-8.0", "tree-7.2": "tree pc-q35-7.2",
             "qemu72": "QEMU 7.2 pc-q35-7.2"}
    for fig, tests, title in (
            ("overcommit-lock", [("l", "spin"), ("h", "halt+IPI wake")],
             "Token hand-off between 2 vCPUs, K VMs at once on 2 host CPUs"),
            ("overcommit-ipi", [("s", "self"), ("o", "one target"), ("b", "broadcast")],
             "LAPIC IPI round trip, K VMs of 2 vCPUs at once on 2 host CPUs")):
        dat = os.path.join(OUT, fig + ".dat")
        cols = []
        with open(dat, "w") as f:
            for v in variants:
                for t, tn in tests:
                    cols.append(f"{names.get(v, v)}, {tn}")
            f.write("K " + " ".join(f'"{c}"' for c in cols) + "\n")
            for k in sorted(ks):
                row = [str(k)]
                for v in variants:
                    for t, _ in tests:
                        row.append(f"{med(d[f'{v}/{k}']['res'][t]):.2f}")
                f.write(" ".join(row) + "\n")
        plots = []
        colors = ["#9467bd", "#1f77b4", "#2ca02c", "#d62728"]  # one colour per variant
        for i, c in enumerate(cols):
            vi, ti = divmod(i, len(tests))
            plots.append(f'"{dat}" using 1:{i + 2} with linespoints lw 2 lc rgb "{colors[vi % len(colors)]}" '
                         f'dt {ti + 1} pt {ti * 2 + 5} ps 1.3 title "{c}"')
        gp(f"""
set terminal pngcairo size 800,520 font ",10"
set output "{PNG}/{fig}.png"
set title "{title}"
set logscale y
set xlabel "VMs running at once (K), 2 vCPUs each"
set ylabel "µs per operation, median (log; lower is better)"
set xtics 1
set xrange [0.8:{max(ks) + 0.2}]
set grid
set key below maxrows 3
plot {", ".join(plots)}
""")


if __name__ == "__main__":
    startup()
    overcommit()
