#!/usr/bin/env python3
"""Compare the exact dice library icepool with Umpire on ten expressions.

For each case this script computes icepool's exact distribution in-process (timed, median
of several fresh repetitions), reads Umpire's time from criterion's results for the bench
group `versus_icepool`, checks that Umpire's CLI (`umpire roll NOTATION --odds --json`)
gives exactly the same distribution, and prints a Markdown table.

    python3 -m venv .venv && .venv/bin/pip install icepool
    .venv/bin/python scripts/icepool_compare.py [--quick] [--only ID]... \
        [--criterion DIR] [--umpire PATH] [--budget SECONDS]
"""

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

try:
    import icepool
except ImportError:
    print("icepool is not installed. Install it in a virtual environment and run the script "
          "with that Python:\n"
          "    python3 -m venv .venv && .venv/bin/pip install icepool\n"
          "    .venv/bin/python scripts/icepool_compare.py", file=sys.stderr)
    sys.exit(2)
try:  # Internal path (icepool 2.x); only used to find evaluator singletons' caches.
    from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase
except ImportError:
    MultisetEvaluatorBase = icepool.MultisetEvaluator

REPO = Path(__file__).resolve().parent.parent
MIN_REPS, MAX_REPS = 3, 100


def d(sides):
    """A new fair die. Never `icepool.d6` / `icepool.d(6)`: those are one cached object
    whose own memo (e.g. the `_sum_cache` behind `N @ die`) survives between calls."""
    return icepool.Die(range(1, sides + 1))


class QrsShooting(icepool.MultisetEvaluator):
    """QRS shooting: one hit per 6, one hit per pair of 5s. The state is (sixes, fives),
    counted as the pool's outcomes are seen one face at a time; the hits are computed at
    the end, so the distribution is exact (6s and 5s are jointly multinomial)."""

    def initial_state(self, order, outcomes, *sizes):
        return (0, 0)

    def next_state(self, state, order, outcome, count):
        sixes, fives = state
        if outcome == 6:
            sixes += count
        elif outcome == 5:
            fives += count
        return (sixes, fives)

    def final_outcome(self, state, order, outcomes, *sizes):
        return state[0] + state[1] // 2


# id → (Umpire's notation or None, icepool computation). The ids are fixed: Umpire's
# criterion benches use the same ones in the group `versus_icepool`. Each lambda builds
# its dice (and evaluator) anew, using icepool's idiomatic API for the expression.
CASES = {
    "sum_10d6": ("10d6", lambda: 10 @ d(6)),
    "sum_100d6": ("100d6", lambda: 100 @ d(6)),
    "sum_500d6": ("500d6", lambda: 500 @ d(6)),
    "sum_10d1000": ("10d1000", lambda: 10 @ d(1000)),
    "pool_30d6_count_5up": ("30d6>=5", lambda: d(6).count(30, {5, 6})),
    "pool_150d6_count_6s": ("150d6>=6", lambda: d(6).count(150, {6})),
    "keep_4d6kh3": ("4d6kh3", lambda: d(6).highest(4, 3)),
    "keep_7d6kh1": ("7d6kh1", lambda: d(6).highest(7)),
    "keep_1000d6kh3": ("1000d6kh3", lambda: d(6).highest(1000, 3)),
    "qrs_shooting_34": (None, lambda: QrsShooting().evaluate(d(6).pool(34))),
}
QRS_NOTATION = "34d6: 6s + ⌊5s/2⌋"


def clear_icepool_caches():
    """Empties every cache icepool keeps across calls (checked against icepool 2.1.3's
    source: grep -rn cache site-packages/icepool). Called before each repetition, outside
    the timed region. Per-object caches (`@cached_property`, `Die._sum_cache`, an
    evaluator's dungeon memo) die with the fresh objects built inside the timed function;
    what outlives a call is module-level state, cleared here:
      - `functools.cache` functions: `icepool.d`/`z` (dice by size), `PoolSource._new_raw`
        (interns pools by their dice: a "new" pool would be the old object, with its
        cached properties and its die's memo), Wallenius and `Again` helpers;
      - module-level evaluator singletons (`sum_evaluator` behind `pool[...].sum()` and
        `Die.highest(n, k)`, `keep_evaluator`, ...): each keeps `_cache`, which maps a
        dungeon to itself *with its memo of every intermediate state* — without clearing
        it, a second `highest(1000, 3)` returns in ~1% of the first one's time;
      - module-level dicts named *cache* (`icepool.math.comb_row_cache`, binomial rows).
    """
    for name, module in list(sys.modules.items()):
        if not (name == "icepool" or name.startswith("icepool.")) or module is None:
            continue
        for attr_name, obj in list(vars(module).items()):
            targets = [obj]
            if isinstance(obj, type) and obj.__module__ == name:
                # Cached class/static methods (stored as classmethod wrappers).
                targets += [getattr(v, "__func__", v) for v in vars(obj).values()]
            for target in targets:
                clear = getattr(target, "cache_clear", None)
                if callable(clear) and not isinstance(target, type):
                    clear()
            if isinstance(obj, MultisetEvaluatorBase):
                obj.__dict__.pop("_cache", None)
            if isinstance(obj, dict) and "cache" in attr_name.lower():
                obj.clear()


def time_icepool(compute, quick, budget):
    """Median wall time (s) of fresh repetitions, the number of repetitions, and the last
    result. At least MIN_REPS (1 with --quick), then more while under `budget` seconds."""
    times, result = [], None
    while True:
        clear_icepool_caches()
        start = time.perf_counter()
        result = compute()
        times.append(time.perf_counter() - start)
        n = len(times)
        if quick or n >= MAX_REPS or (n >= MIN_REPS and sum(times) + times[-1] > budget):
            return statistics.median(times), n, result


def exact(die):
    """icepool's distribution as {value: probability}, as exact fractions."""
    total = die.denominator()
    return {int(v): Fraction(q, total) for v, q in die.items() if q}


# The QRS shooting pool through Umpire's own procedure: 32 base dice and the musket's +2 at
# point blank make 34 dice; a 6 is a hit, a pair of 5s another (the ruling's default).
QRS_COMMAND = ["odds", "qrs", "shooting", "-i", "base_dice=32", "-i", "weapon=musket",
               "-i", "band=point_blank", "--json"]


def umpire_distribution(umpire, notation):
    """Umpire's distribution as {value: Fraction}, or (None, reason)."""
    command = QRS_COMMAND if notation is None else ["roll", notation, "--odds", "--json"]
    try:
        out = subprocess.run([str(umpire), *command],
                             capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "umpire timed out"
    if out.returncode != 0:
        lines = (out.stderr or out.stdout).strip().splitlines() or ["no message"]
        return None, f"umpire failed: {lines[-1]}"
    # Shape (src/cli/roll.rs): {"expr": ..., "distribution": [{"value", "probability",
    # "fraction": "n/d"}, ...]}; zero-probability values are absent.
    # `umpire odds` (crates/core/src/resolve/odds.rs): {"outcomes": [{"code", "value", "fraction"}, ...]}.
    data = json.loads(out.stdout)
    rows = data["distribution"] if notation is not None else data["outcomes"]
    return {int(r["value"]): Fraction(r["fraction"]) for r in rows}, None


def criterion_mean(criterion, case_id):
    """Umpire's mean time in seconds from criterion's estimates.json, or None."""
    path = criterion / "versus_icepool" / case_id / "new" / "estimates.json"
    try:
        return json.loads(path.read_text())["mean"]["point_estimate"] / 1e9
    except (OSError, KeyError, ValueError):
        return None


def sig3(x):
    """A number with 3 significant figures, without exponent notation."""
    if x <= 0:
        return "0"
    rounded = float(f"{x:.3g}")
    if rounded >= 100:
        return f"{rounded:,.0f}"
    return f"{rounded:.{2 - math.floor(math.log10(rounded))}f}"  # keeps trailing zeros


def machine():
    """`uname -m`, the CPU model and the core count."""
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.machine()}, {model}, {os.cpu_count()} logical cores"


def main():
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target").resolve()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=list(CASES), metavar="ID",
                        help="run only this case (repeatable): " + ", ".join(CASES))
    parser.add_argument("--quick", action="store_true", help="one repetition each")
    parser.add_argument("--criterion", type=Path, default=target / "criterion",
                        help="criterion's directory (default: %(default)s)")
    parser.add_argument("--umpire", type=Path, default=target / "release" / "umpire",
                        help="the umpire binary (default: %(default)s)")
    parser.add_argument("--budget", type=float, default=20.0,
                        help="seconds per case for icepool's repetitions beyond the "
                             f"minimum of {MIN_REPS} (default: %(default)s)")
    args = parser.parse_args()

    have_umpire = args.umpire.is_file() and os.access(args.umpire, os.X_OK)
    rows, notes, runs = [], [], []
    for case_id in args.only or CASES:
        notation, compute = CASES[case_id]
        print(f"{case_id}: icepool ...", end=" ", file=sys.stderr, flush=True)
        seconds, reps, die = time_icepool(compute, args.quick, args.budget)
        print(f"{sig3(seconds * 1e3)} ms (median of {reps})", file=sys.stderr, flush=True)

        umpire_s = criterion_mean(args.criterion, case_id)
        umpire_cell = f"{sig3(umpire_s * 1e3)}" if umpire_s else "not benched"
        ratio = f"{sig3(seconds / umpire_s)}×" if umpire_s else "–"

        if not have_umpire:
            match = "not checked"
        else:
            theirs, why = umpire_distribution(args.umpire, notation)
            if theirs is None:
                match = "not checked"
                notes.append(f"`{case_id}`: {why}")
            else:
                ours = exact(die)
                match = "yes" if theirs == ours else "NO"
                if theirs != ours:
                    v = min(set(theirs) ^ set(ours) or
                            {k for k in ours if theirs[k] != ours[k]})
                    notes.append(f"`{case_id}`: differs first at value {v}: Umpire "
                                 f"{theirs.get(v, 0)}, icepool {ours.get(v, 0)}")
        rows.append((case_id, notation or QRS_NOTATION, f"{sig3(seconds * 1e3)}",
                     umpire_cell, ratio, match))
        runs.append(f"`{case_id}` {reps}")

    print(f"- Date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print(f"- Machine: {machine()}")
    print(f"- Python {platform.python_version()}, icepool {icepool.__version__}")
    print(f"- Criterion results: {args.criterion}")
    print(f"- Umpire binary: {args.umpire}"
          + ("" if have_umpire else " (missing: exactness not checked)"))
    print()
    header = ("case", "notation", "icepool (median, ms)", "Umpire (mean, ms)",
              "icepool/Umpire", "exact match")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---"] * 2 + ["---:"] * 3 + ["---"]) + "|")
    for row in rows:
        print(f"| `{row[0]}` | `{row[1]}` | " + " | ".join(row[2:]) + " |")
    print()
    print("- icepool runs per case: " + ", ".join(runs))
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    main()
