"""Summarise a py-spy ``--format raw`` profile (collapsed stacks): the functions with the most
samples, inclusive (the function or anything it calls) and self (the function itself)."""

import argparse
from collections import Counter
from pathlib import Path


def _function(frame: str) -> str:
    """``name (path/file.py:line)`` -> ``name (file.py)``: one entry per function."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rsplit('/', 1)[-1].split(':')[0].rstrip(')')})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--under", help="only stacks through a function of this name")
    args = parser.parse_args()
    total = 0
    inclusive: Counter = Counter()
    own: Counter = Counter()
    for line in Path(args.path).read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [_function(f) for f in stack.split(";")]
        if args.under and not any(f.startswith(args.under + " ") for f in frames):
            continue
        n = int(count)
        total += n
        for frame in set(frames):
            inclusive[frame] += n
        own[frames[-1]] += n
    print(f"{total} samples" + (f" through {args.under}" if args.under else ""))
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"-- {title}")
        for frame, n in counter.most_common(args.top):
            print(f"{n / total:6.1%}  {frame}")


if __name__ == "__main__":
    main()
