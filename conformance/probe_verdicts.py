"""Reads a `flowspec probe --report json=FILE` report (schema flowspec-probe, version 1) for the conformance scripts.

  python3 probe_verdicts.py REPORT --broken KIND [--check TEXT] [--allow KIND ...]
      exit 0 when some verdict of KIND is BROKEN (and, with --check, its check contains TEXT), and every other
      BROKEN or ERROR verdict is of KIND or an --allow kind: the weak setting is caught, and for that reason
  python3 probe_verdicts.py REPORT --clean --held KIND ...
      exit 0 when no verdict is BROKEN, ERROR or skipped, and each --held KIND has at least one held verdict:
      every declared promise was checked and kept

Either way it prints one line: the verdicts that are neither held nor n/a (kind, check, verdict, detail), or what is
missing, so a failed expectation shows why. Exit 1 when the expectation does not hold, 2 on a missing or bad report.
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--broken")
    parser.add_argument("--check")
    parser.add_argument("--allow", nargs="*", default=[])
    parser.add_argument("--clean", action="store_true")
    parser.add_argument("--held", nargs="*", default=[])
    args = parser.parse_args()
    try:
        with open(args.report) as f:
            report = json.load(f)
        verdicts = report["verdicts"]
        assert report.get("schema") == "flowspec-probe"
    except (OSError, ValueError, KeyError, AssertionError) as e:
        print(f"no usable probe report at {args.report}: {e}")
        sys.exit(2)

    def line(v):
        check = f" · {v['check']}" if v.get("check") else ""
        return f"{v['verdict'].upper()} {v['probe']}{check}: {v['detail']}"

    notable = [v for v in verdicts if v["verdict"] not in ("held", "not_applicable")]
    problems = []
    if args.broken:
        caught = [v for v in notable if v["probe"] == args.broken and v["verdict"] == "broken"
                  and (args.check is None or args.check in v.get("check", ""))]
        if not caught:
            problems.append(f"no BROKEN {args.broken}" + (f" ({args.check})" if args.check else ""))
        allowed = {args.broken, *args.allow}
        others = [v for v in notable if v["verdict"] in ("broken", "error") and v["probe"] not in allowed]
        if others:
            problems.append("also " + "; ".join(line(v) for v in others))
    if args.clean:
        if notable:
            problems.append("not all held: " + "; ".join(line(v) for v in notable))
        for kind in args.held:
            if not any(v["probe"] == kind and v["verdict"] == "held" for v in verdicts):
                problems.append(f"nothing of {kind} was checked and held")
    summary = "; ".join(line(v) for v in notable) or "every verdict held or n/a"
    print(("FAILED: " + " — ".join(problems) + " | ") if problems else "", summary, sep="")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
