#!/usr/bin/env python3
"""Compare the exact dice library icepool with Umpire: notations, procedures, and series.

For each case this script computes icepool's exact distribution in-process (timed, median
of several fresh repetitions; one when a repetition takes over 10 s; stopped at --timeout),
reads Umpire's time from criterion's results (`cargo bench --bench engine`: the groups
`versus_icepool`, `procedures_versus_icepool` and `series`), checks that Umpire's CLI
(`umpire roll NOTATION --odds --json`, or `umpire odds …` for a procedure) gives exactly the
same distribution, and prints a Markdown table. `--series` prints issue 32's series instead
(Nd6, Nd6khN/2, Nd6>=5, Nd6 > Nd6, max(300d6,300d6), 12d1000+12d1000), with the floors
criterion measured beside them; the rr3 battle shows its floor too.

    python3 -m venv .venv && .venv/bin/pip install icepool
    .venv/bin/python scripts/icepool_compare.py [--quick] [--series] [--only ID]... \
        [--criterion DIR] [--umpire PATH] [--budget SECONDS] [--timeout SECONDS]
"""

import argparse
import datetime
import json
import math
import signal
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
# icepool sums `n @ die` by a recursion a die deep (`Die._sum_all`): 1,000 dice and more pass
# Python's default limit of 1,000 frames.
sys.setrecursionlimit(50_000)
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


def rr3_battle(a, d):
    """rr3's Battle (tables/rr3/ruleset.yaml): the winner inflicts half its score, the
    loser a quarter of its own; the outcome and the value the odds carry (the loser's loss
    for a win, none for a tie)."""
    if a > d:
        return ("attacker_wins", a // 2)
    if d > a:
        return ("defender_wins", d // 2)
    return ("tie", NONE)


def hits(groups):
    """Hits of a side of Gradisca's Field Combat: `count` dice hitting on fire value `fv`
    or less (a die − fire value ≤ 0)."""
    total = icepool.Die([0])
    for count, fv in groups:
        total = total + count @ icepool.Die({1: fv, 0: 6 - fv})
    return total


def gradisca_field_combat(a, d):
    """Gradisca's Field Combat with every input at its maximum (basic rules, the default
    rulings): Forts cancel one hit (basic), the intact Fortified Town one more; each side
    absorbs up to 2·30 + 30 hits; the cases in the ruleset's order."""
    capacity = 2 * 30 + 30
    on_defender = max(0, a - (1 + 1))
    defender_absorbed = min(on_defender, capacity)
    attacker_absorbed = min(d, capacity)
    defender_out = defender_absorbed >= capacity
    attacker_out = attacker_absorbed >= capacity
    if defender_out and attacker_out:
        return ("both_annihilated", NONE)
    if defender_out:
        return ("defender_annihilated", NONE)
    if attacker_out:
        return ("attacker_annihilated", NONE)
    if defender_absorbed > attacker_absorbed:
        return ("defender_defeated", NONE)
    return ("attacker_defeated", NONE)


# Every group of dice of a side at its maximum: 30 units at each fire value 1–6, 6
# Commanders of each Leadership Value 1–3, 10 Artillery at fire value 6.
GRADISCA_SIDE = [(30, fv) for fv in range(1, 7)] + [(6, lv) for lv in range(1, 4)] + [(10, 6)]

# A value that is not there (a tie carries none), sortable beside numbers for icepool.
NONE = -1

# Procedures: id → (the `umpire odds` arguments, or None when the CLI cannot take them,
# icepool computation). Ids as Umpire's bench group `procedures_versus_icepool`.
PROCEDURES = {
    "rr3_battle_70k": (["rr3", "battle", "-i", "attacker_thousands=70", "-i",
                        "attacker_nationality=other", "-i", "defender_thousands=70", "-i",
                        "defender_nationality=other"],
                       lambda: icepool.map(rr3_battle, 14 @ d(6), 14 @ d(6))),
    # 200,000 a side is past the ruleset's limit of 70: the bench raises it (same
    # distribution), the command line does not take it, so exactness is checked at 70k.
    "rr3_battle_200k": (None, lambda: icepool.map(rr3_battle, 40 @ d(6), 40 @ d(6))),
    "qrs_shooting_64": (["qrs", "shooting", "-i", "base_dice=60", "-i", "weapon=heavy_cannon",
                         "-i", "band=point_blank", "-i", "target_massed=true"],
                        lambda: QrsShooting().evaluate(d(6).pool(64))),
    "gradisca_field_combat_max": (
        ["gradisca", "field_combat"]
        + [arg for who in ("attacker", "defender") for name, v in
           [(f"{who}_fv{k}", 30) for k in range(1, 7)]
           + [(f"{who}_cmd_lv{k}", 6) for k in range(1, 4)]
           + [(f"{who}_artillery", 10), (f"{who}_artillery_fv", 6),
              (f"{who}_two_hit_units", 30), (f"{who}_one_hit_units", 30)]
           for arg in ("-i", f"{name}={v}")]
        + ["-i", "forts=3", "-i", "fortified_town=true"],
        lambda: icepool.map(gradisca_field_combat, hits(GRADISCA_SIDE), hits(GRADISCA_SIDE))),
}

# Issue 32's series: id → notation, icepool computation. Ids as the bench group `series`,
# whose `floor_<id>` is the least any method must do (one pass over a sum's output; the two
# sums an opposed roll compares).
SERIES = {}
for _n in (10, 100, 500, 1000, 2000, 5000):
    SERIES[f"sum_{_n}d6"] = (f"{_n}d6", lambda n=_n: n @ d(6))
for _n in (10, 50, 100, 200, 400, 700, 1000):
    SERIES[f"keep_{_n}d6kh{_n // 2}"] = (f"{_n}d6kh{_n // 2}",
                                         lambda n=_n: d(6).highest(n, n // 2))
for _n in (100, 1000, 10000):
    SERIES[f"count_{_n}d6_5up"] = (f"{_n}d6>=5", lambda n=_n: d(6).count(n, {5, 6}))
for _n in (10, 100, 500, 1000):
    SERIES[f"opposed_{_n}d6"] = (f"{_n}d6 > {_n}d6", lambda n=_n: (n @ d(6)).cmp(n @ d(6)))
SERIES["max_300d6"] = ("max(300d6,300d6)", lambda: icepool.highest(300 @ d(6), 300 @ d(6)))
SERIES["sum_12d1000_twice"] = ("12d1000+12d1000", lambda: 12 @ d(1000) + 12 @ d(1000))


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


class TooLong(Exception):
    """An icepool computation past --timeout."""


def _too_long(signum, frame):
    raise TooLong()


def time_icepool(compute, quick, budget, timeout):
    """Median wall time (s) of fresh repetitions, the number of repetitions, and the last
    result; (None, 0, None) past `timeout` seconds. At least MIN_REPS (1 with --quick, or
    when one takes over 10 s), then more while under `budget` seconds."""
    times, result = [], None
    signal.signal(signal.SIGALRM, _too_long)
    while True:
        clear_icepool_caches()
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            result = compute()
        except TooLong:
            return None, 0, None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        times.append(time.perf_counter() - start)
        n = len(times)
        if (quick or n >= MAX_REPS or times[-1] > 10
                or (n >= MIN_REPS and sum(times) + times[-1] > budget)):
            return statistics.median(times), n, result


def exact(die):
    """icepool's distribution as {value: probability}, as exact fractions (a procedure's
    outcomes as {(code, value): probability})."""
    total = die.denominator()
    return {(v if isinstance(v, tuple) else int(v)): Fraction(q, total)
            for v, q in die.items() if q}


# The QRS shooting pool through Umpire's own procedure: 32 base dice and the musket's +2 at
# point blank make 34 dice; a 6 is a hit, a pair of 5s another (the ruling's default).
QRS_COMMAND = ["odds", "qrs", "shooting", "-i", "base_dice=32", "-i", "weapon=musket",
               "-i", "band=point_blank", "--json"]


def umpire_distribution(umpire, notation, command=None):
    """Umpire's distribution as {value: Fraction}, a procedure's (`command`, the arguments
    of `umpire odds`) as {(code, value): Fraction}; or (None, reason)."""
    procedure = command is not None
    if procedure:
        args = ["odds", *command, "--json"]
    elif notation is None:
        args = QRS_COMMAND
    else:
        args = ["roll", notation, "--odds", "--json", "--budget", "600"]
    try:
        out = subprocess.run([str(umpire), *args],
                             capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "umpire timed out"
    if out.returncode != 0:
        lines = (out.stderr or out.stdout).strip().splitlines() or ["no message"]
        return None, f"umpire failed: {lines[-1]}"
    # Shape (crates/core/src/dice/print.rs): {"expr": ..., "distribution": [{"value",
    # "probability", "fraction": "n/d"}, ...]}; zero-probability values are absent.
    # `umpire odds` (crates/core/src/resolve/odds.rs): {"outcomes": [{"code", "value", "fraction"}, ...]}.
    data = json.loads(out.stdout)
    if procedure and command[0] == "qrs":
        # A pool's outcomes are its hits: compared by value.
        return {int(r["value"]): Fraction(r["fraction"]) for r in data["outcomes"]}, None
    if procedure:
        return {(r["code"], r.get("value", NONE)): Fraction(r["fraction"])
                for r in data["outcomes"]}, None
    rows = data["distribution"] if notation is not None else data["outcomes"]
    return {int(r["value"]): Fraction(r["fraction"]) for r in rows}, None


def criterion_mean(criterion, case_id, group="versus_icepool"):
    """Umpire's mean time in seconds from criterion's estimates.json, or None."""
    path = criterion / group / case_id / "new" / "estimates.json"
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


def compare(umpire, notation, command, die):
    """Whether Umpire's exact distribution is icepool's: "yes", "NO" (with a note), or
    "not checked" (with why)."""
    if umpire is None:
        return "not checked", None
    if die is None:
        return "not checked", "icepool did not finish"
    theirs, why = umpire_distribution(umpire, notation, command)
    if theirs is None:
        return "not checked", why
    ours = exact(die)
    if theirs == ours:
        return "yes", None
    v = min(set(theirs) ^ set(ours) or {k for k in ours if theirs[k] != ours[k]}, key=repr)
    return "NO", (f"differs first at {v}: Umpire {theirs.get(v, 0)}, "
                  f"icepool {ours.get(v, 0)}")


def main():
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target").resolve()
    every = list(CASES) + list(PROCEDURES) + list(SERIES)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=every, metavar="ID",
                        help="run only this case (repeatable): " + ", ".join(every))
    parser.add_argument("--series", action="store_true",
                        help="issue 32's series (Nd6, Nd6khN/2, Nd6>=5, Nd6 > Nd6, "
                        "max(300d6,300d6), 12d1000+12d1000) with floors")
    parser.add_argument("--quick", action="store_true", help="one repetition each")
    parser.add_argument("--criterion", type=Path, default=target / "criterion",
                        help="criterion's directory (default: %(default)s)")
    parser.add_argument("--umpire", type=Path, default=target / "release" / "umpire",
                        help="the umpire binary (default: %(default)s)")
    parser.add_argument("--budget", type=float, default=20.0,
                        help="seconds per case for icepool's repetitions beyond the "
                             f"minimum of {MIN_REPS} (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds one icepool computation may take (default: %(default)s)")
    args = parser.parse_args()

    have_umpire = args.umpire.is_file() and os.access(args.umpire, os.X_OK)
    umpire = args.umpire if have_umpire else None
    if args.series:
        cases = [(i, "series", n, None, c) for i, (n, c) in SERIES.items()]
    else:
        cases = ([(i, "versus_icepool", n, None, c) for i, (n, c) in CASES.items()]
                 + [(i, "procedures_versus_icepool", None, cmd, c)
                    for i, (cmd, c) in PROCEDURES.items()])
    if args.only:
        cases = [c for c in cases if c[0] in args.only]
    rows, notes, runs = [], [], []
    for case_id, group, notation, command, compute in cases:
        print(f"{case_id}: icepool ...", end=" ", file=sys.stderr, flush=True)
        seconds, reps, die = time_icepool(compute, args.quick, args.budget, args.timeout)
        ice_cell = f"{sig3(seconds * 1e3)}" if seconds else f"> {sig3(args.timeout * 1e3)}"
        print(f"{ice_cell} ms ({reps} runs)", file=sys.stderr, flush=True)

        umpire_s = criterion_mean(args.criterion, case_id, group)
        umpire_cell = f"{sig3(umpire_s * 1e3)}" if umpire_s else "not benched"
        if umpire_s and seconds:
            ratio = f"{sig3(seconds / umpire_s)}×"
        elif umpire_s:
            ratio = f"> {sig3(args.timeout / umpire_s)}×"
        else:
            ratio = "–"
        if group == "procedures_versus_icepool" and command is None:
            match, why = "not checked", "the command line holds strength to 70 (thousands)"
        else:
            match, why = compare(umpire, notation, command, die)
        if why:
            notes.append(f"`{case_id}`: {why}")
        shown = notation or (QRS_NOTATION if group == "versus_icepool" else
                             " ".join(command[:2]) if command else "rr3 battle, 40d6 a side")
        row = [case_id, shown, ice_cell, umpire_cell, ratio, match]
        # Every case the bench holds beside a floor (the series; the rr3 battle) shows it.
        floor = criterion_mean(args.criterion, f"floor_{case_id}", group)
        row.insert(4, f"{sig3(floor * 1e3)}" if floor else "–")
        row.insert(5, f"{sig3(umpire_s / floor)}×" if floor and umpire_s else "–")
        rows.append(row)
        runs.append(f"`{case_id}` {reps}")

    print(f"- Date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print(f"- Machine: {machine()}")
    print(f"- Python {platform.python_version()}, icepool {icepool.__version__}")
    print(f"- Criterion results: {args.criterion}")
    print(f"- Umpire binary: {args.umpire}"
          + ("" if have_umpire else " (missing: exactness not checked)"))
    print()
    header = ["case", "notation", "icepool (median, ms)", "Umpire (mean, ms)",
              "icepool/Umpire", "exact match"]
    header[4:4] = ["floor (ms)", "Umpire/floor"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---"] * 2 + ["---:"] * (len(header) - 3) + ["---"]) + "|")
    for row in rows:
        print(f"| `{row[0]}` | `{row[1]}` | " + " | ".join(row[2:]) + " |")
    print()
    print("- icepool runs per case: " + ", ".join(runs))
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    main()
