"""Charts as server-rendered SVG: the geometry here, the drawing in templates/stats/chart_*.html,
in a fixed viewBox 360 wide."""

from dataclasses import dataclass, field

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 38, 10, 10, 24
# A line's first and last points stand this far inside the plot, off the value labels.
PAD = 8
# A label's digit and separator widths at 11 px, and the least gap between two x labels.
DIGIT, SEPARATOR, GAP = 6.2, 3.2, 5
# Distinct on the dark green table, with enough contrast for thin lines.
COLORS = ("#4fd18b", "#ffd166", "#6ec6ff", "#ff8fa3", "#c39bff", "#ffa552", "#9be7e0", "#e0e0e0")
SPAN_X, SPAN_Y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
FRAME = {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT}
FRAME["bottom"] = HEIGHT - BOTTOM


@dataclass
class Line:
    label: str
    color: str
    points: str
    dots: list[tuple[float, float, int]] = field(default_factory=list)


def _ticks(low: float, high: float, count: int = 4) -> list[int]:
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if s >= raw)
    first = int(low // step) * step
    ticks = [first]
    while ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def line_chart(series: list[tuple[str, list[int]]], x_labels: list[str]) -> dict:
    """Lines (label, values) over the same x positions, labelled by ``x_labels``."""
    values = [v for _, vs in series for v in vs]
    count = max((len(vs) for _, vs in series), default=0)
    if not values or count == 0:
        return {}
    ticks = _ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]

    def x(i: int) -> float:
        inner = SPAN_X - 2 * PAD
        return round(LEFT + PAD + (inner * i / (count - 1) if count > 1 else inner / 2), 1)

    def y(v: float) -> float:
        return round(TOP + SPAN_Y * (high - v) / (high - low), 1)

    lines = []
    for index, (label, vs) in enumerate(series):
        coords = [(x(i), y(v), v) for i, v in enumerate(vs)]
        points = " ".join(f"{cx},{cy}" for cx, cy, _ in coords)
        color = COLORS[index % len(COLORS)]
        lines.append(Line(label, color, points, coords if count <= 30 else []))
    return {
        **FRAME,
        "lines": lines,
        "y_ticks": [{"y": y(t), "label": t} for t in ticks],
        "x_ticks": _x_ticks([x(i) for i in range(count)], x_labels[:count]),
    }


def _x_ticks(xs: list[float], labels: list[str]) -> list[dict]:
    """At most about eight of ``labels`` under their points, never two overlapping: the last
    always (ending at its point), the first starting at its point, the others centred."""
    count = len(labels)
    every = max(1, -(-count // 8))

    def tick(i: int) -> dict:
        anchor = "start" if i == 0 else "end" if i == count - 1 else "middle"
        width = _label_width(str(labels[i]))
        low = {"start": xs[i], "end": xs[i] - width, "middle": xs[i] - width / 2}[anchor]
        return {"x": xs[i], "label": labels[i], "anchor": anchor, "low": low, "high": low + width}

    if not count:
        return []
    last = tick(count - 1)
    kept: list[dict] = []
    for i in range(0, count - 1, every):
        found = tick(i)
        if not labels[i] or found["high"] + GAP > last["low"]:
            continue
        if kept and found["low"] < kept[-1]["high"] + GAP:
            continue
        kept.append(found)
    return [{k: t[k] for k in ("x", "label", "anchor")} for t in [*kept, last]]


def _label_width(label: str) -> float:
    return sum(SEPARATOR if c in ".,:/" else DIGIT for c in label)


def bar_chart(bars: list[tuple[str, int]]) -> dict:
    """Vertical bars (label, count), for a distribution: every bar's label, or every second
    (third...) where they would overlap, each centred under its bar."""
    if not bars:
        return {}
    top = max(n for _, n in bars) or 1
    slot = SPAN_X / len(bars)
    widest = max(_label_width(label) for label, _ in bars)
    every = max(1, -(-len(bars) // 9), -int(-(widest + GAP) // slot))
    ticks = _ticks(0, top)
    high = ticks[-1]
    return {
        **FRAME,
        "y_ticks": [{"y": round(TOP + SPAN_Y * (high - t) / high, 1), "label": t} for t in ticks],
        "bars": [
            {
                "x": round(LEFT + slot * i + slot * 0.1, 1),
                "width": round(slot * 0.8, 1),
                "y": round(TOP + SPAN_Y * (high - n) / high, 1),
                "height": round(SPAN_Y * n / high, 1),
                "label": label,
                "count": n,
                "mid": round(LEFT + slot * (i + 0.5), 1),
                "show_label": i % every == 0,
            }
            for i, (label, n) in enumerate(bars)
        ],
    }
