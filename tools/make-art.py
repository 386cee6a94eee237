#!/usr/bin/env python3
"""Make the cabinet's art kit (assets/art/**.svg): vector art made by the
project, free to ship, which a game studio replaces file by file
(assets/README.md says how).

    python3 tools/make-art.py

Every drawing is paths and shapes only (no <text>: nothing depends on a
font being installed). Ranks and marks are drawn with a small stroke font
of this file (STROKES).

cards/        the 52 faces (AS … KC: rank then suit S H D C), back, joker
chips/        one chip per value (chip-1 … chip-500, in credits)
table/        the felt
roulette/     the single-zero and double-zero wheels, the ball
bingo/        a ball, a card
reels/        the reel frame
backgrounds/  the game and attract backgrounds
buttons/      the touch deck: play, bet-minus, bet-plus, lines, max-bet,
              cash-out, help, menu, denomination, language
games/<id>/   each shipped game's logo, and a reel game's symbols/<symbol>.svg
"""
import math
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "assets", "art")

# A stroke font on a 10 x 14 box (y down): each glyph a list of SVG path
# commands, drawn with a round stroke.
STROKES = {
    "A": "M0 14 L5 0 L10 14 M2 9 L8 9",
    "2": "M0.5 3.5 C0.5 -0.5 9.5 -0.5 9.5 3.5 C9.5 7 0 9.5 0 14 L10 14",
    "3": "M0.5 1 L9 1 L4.5 6 C10.5 5.5 11 14 5 14 C2 14 0.5 12.5 0 11.5",
    "4": "M7.5 14 L7.5 0 L0 10 L10 10",
    "5": "M9 0.5 L1.5 0.5 L0.5 6.5 C3 4.5 10 4.5 10 9.5 C10 14.5 2 15 0 12",
    "6": "M8.5 0.5 C3 1.5 0 6 0 10 C0 14.5 10 14.5 10 10 C10 5.5 2 5.5 0.2 9.5",
    "7": "M0 0.5 L10 0.5 L3.5 14",
    "8": "M5 0.5 C0.5 0.5 0.5 6.5 5 6.5 C9.5 6.5 9.5 0.5 5 0.5 M5 6.5 C-0.5 6.5 -0.5 14 5 14 C10.5 14 10.5 6.5 5 6.5",
    "9": "M9.8 4.5 C9.8 9 0.2 9 0.2 4.5 C0.2 0 9.8 0 9.8 4.5 L9.8 8 C9.8 12 6.5 14 1.5 13.5",
    "1": "M2 2.5 L5 0 L5 14",
    "0": "M5 0.3 C-0.8 0.3 -0.8 13.7 5 13.7 C10.8 13.7 10.8 0.3 5 0.3",
    "J": "M10 0.5 L10 10 C10 14.5 1.5 14.5 0 10.5",
    "Q": "M5 0.3 C-0.8 0.3 -0.8 13.7 5 13.7 C10.8 13.7 10.8 0.3 5 0.3 M6 9.5 L10 14",
    "K": "M0.5 0 L0.5 14 M10 0 L0.5 8.5 M3.5 5.5 L10 14",
    "?": "M0.5 3.5 C0.5 -0.5 9.5 -0.5 9.5 3.5 C9.5 6.5 5 6.5 5 10 M5 13.2 L5 13.6",
    "+": "M5 2 L5 12 M0 7 L10 7",
    "-": "M0 7 L10 7",
}

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = {"S": ("#1b1b1b", "spade"), "H": ("#c8102e", "heart"), "D": ("#c8102e", "diamond"), "C": ("#1b1b1b", "club")}


def glyphs(text, x, y, size, colour, width=None):
    """`text` in the stroke font, its box's top left at (x, y), `size` high."""
    s = size / 14.0
    w = width if width is not None else 1.9
    out = []
    cx = x
    for ch in text:
        d = STROKES[ch]
        out.append(
            f'<path d="{d}" transform="translate({cx:.2f} {y:.2f}) scale({s:.4f})" fill="none" stroke="{colour}" '
            f'stroke-width="{w}" stroke-linecap="round" stroke-linejoin="round"/>'
        )
        cx += (7.5 if ch == "1" else 12.5) * s
    return "".join(out)


def text_width(text, size):
    s = size / 14.0
    return sum((7.5 if ch == "1" else 12.5) * s for ch in text) - 2.5 * s


def suit_path(kind, cx, cy, r, colour):
    """A suit mark centred on (cx, cy), about 2r across."""
    if kind == "heart":
        d = (f"M{cx} {cy + r} C{cx - 1.6 * r} {cy - 0.1 * r} {cx - 1.1 * r} {cy - 1.3 * r} {cx} {cy - 0.45 * r} "
             f"C{cx + 1.1 * r} {cy - 1.3 * r} {cx + 1.6 * r} {cy - 0.1 * r} {cx} {cy + r} Z")
    elif kind == "diamond":
        d = f"M{cx} {cy - r} L{cx + 0.72 * r} {cy} L{cx} {cy + r} L{cx - 0.72 * r} {cy} Z"
    elif kind == "spade":
        d = (f"M{cx} {cy - r} C{cx + 1.6 * r} {cy + 0.1 * r} {cx + 1.0 * r} {cy + 1.0 * r} {cx + 0.1 * r} {cy + 0.45 * r} "
             f"L{cx + 0.35 * r} {cy + r} L{cx - 0.35 * r} {cy + r} L{cx - 0.1 * r} {cy + 0.45 * r} "
             f"C{cx - 1.0 * r} {cy + 1.0 * r} {cx - 1.6 * r} {cy + 0.1 * r} {cx} {cy - r} Z")
    else:  # club
        k = 0.42 * r
        return (f'<g fill="{colour}"><circle cx="{cx}" cy="{cy - 0.45 * r}" r="{k}"/>'
                f'<circle cx="{cx - 0.48 * r}" cy="{cy + 0.15 * r}" r="{k}"/><circle cx="{cx + 0.48 * r}" cy="{cy + 0.15 * r}" r="{k}"/>'
                f'<path d="M{cx - 0.12 * r} {cy} L{cx - 0.35 * r} {cy + r} L{cx + 0.35 * r} {cy + r} L{cx + 0.12 * r} {cy} Z"/></g>')
    return f'<path d="{d}" fill="{colour}"/>'


def svg(w, h, body):
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{body}</svg>\n'


def write(rel, content):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


# Where the pips of each spot card sit, in a 0..1 box (x, y, upside down).
PIPS = {
    2: [(0.5, 0.0, 0), (0.5, 1.0, 1)],
    3: [(0.5, 0.0, 0), (0.5, 0.5, 0), (0.5, 1.0, 1)],
    4: [(0, 0, 0), (1, 0, 0), (0, 1, 1), (1, 1, 1)],
    5: [(0, 0, 0), (1, 0, 0), (0.5, 0.5, 0), (0, 1, 1), (1, 1, 1)],
    6: [(0, 0, 0), (1, 0, 0), (0, 0.5, 0), (1, 0.5, 0), (0, 1, 1), (1, 1, 1)],
    7: [(0, 0, 0), (1, 0, 0), (0.5, 0.25, 0), (0, 0.5, 0), (1, 0.5, 0), (0, 1, 1), (1, 1, 1)],
    8: [(0, 0, 0), (1, 0, 0), (0.5, 0.25, 0), (0, 0.5, 0), (1, 0.5, 0), (0.5, 0.75, 1), (0, 1, 1), (1, 1, 1)],
    9: [(0, 0, 0), (1, 0, 0), (0, 1 / 3, 0), (1, 1 / 3, 0), (0.5, 0.5, 0), (0, 2 / 3, 1), (1, 2 / 3, 1), (0, 1, 1), (1, 1, 1)],
    10: [(0, 0, 0), (1, 0, 0), (0.5, 1 / 6, 0), (0, 1 / 3, 0), (1, 1 / 3, 0), (0, 2 / 3, 1), (1, 2 / 3, 1), (0.5, 5 / 6, 1), (0, 1, 1), (1, 1, 1)],
}


def card(rank, suit):
    colour, kind = SUITS[suit]
    W, H = 250, 350
    body = [f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="#fbfaf5" stroke="#8a8a8a" stroke-width="2"/>']
    # Indices in two corners (the lower one turned).
    idx = glyphs(rank, 0, 0, 34, colour, 2.2) + suit_path(kind, text_width(rank, 34) / 2, 52, 11, colour)
    body.append(f'<g transform="translate(16 16)">{idx}</g>')
    body.append(f'<g transform="translate({W - 16} {H - 16}) rotate(180)">{idx}</g>')
    if rank in ("J", "Q", "K"):
        # A court card: a framed panel, a crown, the rank large, the suit.
        body.append(f'<rect x="52" y="62" width="{W - 104}" height="{H - 124}" rx="8" fill="#f1e2b8" stroke="{colour}" stroke-width="3"/>')
        crown = {"J": 3, "Q": 4, "K": 5}[rank]
        pts = []
        for i in range(crown * 2 + 1):
            x = 85 + i * (80 / (crown * 2))
            y = 112 if i % 2 == 0 else 88
            pts.append(f"{x:.1f},{y}")
        body.append(f'<polygon points="85,128 {" ".join(pts)} 165,128" fill="#d4a017" stroke="#7a5a00" stroke-width="2"/>')
        body.append(glyphs(rank, W / 2 - text_width(rank, 70) / 2, 150, 70, colour, 2.0))
        body.append(suit_path(kind, W / 2, 262, 20, colour))
    elif rank == "A":
        body.append(suit_path(kind, W / 2, H / 2, 48, colour))
    else:
        n = int(rank)
        for (px, py, down) in PIPS[n]:
            x = 78 + px * (W - 156)
            y = 70 + py * (H - 140)
            mark = suit_path(kind, 0, 0, 20, colour)
            rot = " rotate(180)" if down else ""
            body.append(f'<g transform="translate({x:.1f} {y:.1f}){rot}">{mark}</g>')
    return svg(W, H, "".join(body))


def card_back():
    W, H = 250, 350
    lines = "".join(f'<path d="M{-H + i * 18} 0 L{i * 18} {H}" stroke="#f0d98c" stroke-width="2" opacity="0.55"/>' for i in range(0, 40))
    lines += "".join(f'<path d="M{i * 18} 0 L{i * 18 - H} {H}" stroke="#f0d98c" stroke-width="2" opacity="0.55"/>' for i in range(0, 40))
    return svg(W, H, (
        f'<defs><clipPath id="c"><rect x="18" y="18" width="{W - 36}" height="{H - 36}" rx="8"/></clipPath></defs>'
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="#fbfaf5" stroke="#8a8a8a" stroke-width="2"/>'
        f'<rect x="18" y="18" width="{W - 36}" height="{H - 36}" rx="8" fill="#7b1020"/>'
        f'<g clip-path="url(#c)">{lines}</g>'
        f'<circle cx="{W / 2}" cy="{H / 2}" r="46" fill="#7b1020" stroke="#f0d98c" stroke-width="6"/>'
        + suit_path("spade", W / 2, H / 2, 24, "#f0d98c")
    ))


def joker():
    W, H = 250, 350
    return svg(W, H, (
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="#fbfaf5" stroke="#8a8a8a" stroke-width="2"/>'
        '<path d="M60 250 L80 110 L125 190 L170 110 L190 250 Z" fill="#5b2a86" stroke="#2e1446" stroke-width="4"/>'
        '<circle cx="80" cy="104" r="14" fill="#d4a017"/><circle cx="125" cy="184" r="14" fill="#d4a017"/><circle cx="170" cy="104" r="14" fill="#d4a017"/>'
        '<rect x="60" y="250" width="130" height="26" rx="6" fill="#d4a017"/>'
    ))


CHIPS = {1: "#f4f4f4", 5: "#c8102e", 10: "#1f5fbf", 25: "#1e8c3a", 100: "#1b1b1b", 500: "#6a2d91"}


def chip(value, colour):
    S = 200
    c = S / 2
    stripes = "".join(
        f'<rect x="{c - 9}" y="6" width="18" height="30" fill="#ffffff" transform="rotate({a} {c} {c})"/>' for a in range(0, 360, 45)
    )
    ink = "#1b1b1b" if value == 1 else "#ffffff"
    label = str(value)
    size = 46 if len(label) < 3 else 38
    return svg(S, S, (
        f'<circle cx="{c}" cy="{c}" r="96" fill="{colour}" stroke="#444" stroke-width="3"/>{stripes}'
        f'<circle cx="{c}" cy="{c}" r="62" fill="{colour}" stroke="#ffffff" stroke-width="4" stroke-dasharray="10 6"/>'
        + glyphs(label, c - text_width(label, size) / 2, c - size / 2, size, ink, 2.4)
    ))


def felt():
    W, H = 1920, 1080
    return svg(W, H, (
        '<defs><radialGradient id="g" cx="50%" cy="45%" r="70%"><stop offset="0" stop-color="#1f8a4c"/>'
        '<stop offset="1" stop-color="#0b4a26"/></radialGradient></defs>'
        f'<rect width="{W}" height="{H}" fill="url(#g)"/>'
        f'<rect x="40" y="40" width="{W - 80}" height="{H - 80}" rx="60" fill="none" stroke="#e9d48a" stroke-width="6" opacity="0.7"/>'
    ))


RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
EUROPEAN = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]
AMERICAN = [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, "00", 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2]


def ring(c, n, i, r0, r1, colour):
    """Place i of a ring of n round (c, c) between radii r0 and r1, centred
    i/n of a turn clockwise from the top; its path and its middle angle."""
    a0 = 2 * math.pi * i / n - math.pi / 2 - math.pi / n
    a1 = a0 + 2 * math.pi / n
    pts = [(c + r1 * math.cos(a0), c + r1 * math.sin(a0)), (c + r1 * math.cos(a1), c + r1 * math.sin(a1)),
           (c + r0 * math.cos(a1), c + r0 * math.sin(a1)), (c + r0 * math.cos(a0), c + r0 * math.sin(a0))]
    path = (f'<path d="M{pts[0][0]:.2f} {pts[0][1]:.2f} A{r1} {r1} 0 0 1 {pts[1][0]:.2f} {pts[1][1]:.2f} '
            f'L{pts[2][0]:.2f} {pts[2][1]:.2f} A{r0} {r0} 0 0 0 {pts[3][0]:.2f} {pts[3][1]:.2f} Z" fill="{colour}" stroke="#d9c27a" stroke-width="1.5"/>')
    return path, (a0 + a1) / 2


def wheel(sequence):
    S = 800
    c = S / 2
    n = len(sequence)
    body = [f'<circle cx="{c}" cy="{c}" r="396" fill="#5a3416" stroke="#2e1a0a" stroke-width="6"/>']
    for i, num in enumerate(sequence):
        colour = "#1e8c3a" if num in (0, "00") else ("#c8102e" if num in RED else "#1b1b1b")
        path, mid = ring(c, n, i, 230, 360, colour)
        body.append(path)
        label = str(num)
        size = 26
        x, y = c + 320 * math.cos(mid), c + 320 * math.sin(mid)
        rot = math.degrees(mid) + 90
        body.append(
            f'<g transform="translate({x:.2f} {y:.2f}) rotate({rot:.2f})">'
            + glyphs(label, -text_width(label, size) / 2, -size / 2, size, "#ffffff", 2.0) + "</g>"
        )
    body.append(f'<circle cx="{c}" cy="{c}" r="230" fill="#7a4a1e" stroke="#d9c27a" stroke-width="4"/>')
    body.append(f'<circle cx="{c}" cy="{c}" r="120" fill="#a06a30" stroke="#d9c27a" stroke-width="3"/>')
    for k in range(4):
        a = k * math.pi / 2
        body.append(f'<path d="M{c} {c} L{c + 110 * math.cos(a):.2f} {c + 110 * math.sin(a):.2f}" stroke="#e8d090" stroke-width="10" stroke-linecap="round"/>')
    body.append(f'<circle cx="{c}" cy="{c}" r="22" fill="#e8d090"/>')
    return svg(S, S, "".join(body))


def star(cx, cy, r, colour):
    """A five-pointed star centred on (cx, cy), its points r out."""
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.42
        pts.append(f"{cx + rr * math.cos(a):.2f} {cy + rr * math.sin(a):.2f}")
    return f'<path d="M{" L".join(pts)} Z" fill="{colour}"/>'


def sun(cx, cy, r):
    rays = "".join(
        f'<path d="M{cx + 0.7 * r * math.cos(2 * math.pi * k / 8):.2f} {cy + 0.7 * r * math.sin(2 * math.pi * k / 8):.2f} '
        f'L{cx + r * math.cos(2 * math.pi * k / 8):.2f} {cy + r * math.sin(2 * math.pi * k / 8):.2f}" stroke="#ffd84a" stroke-width="3" stroke-linecap="round"/>'
        for k in range(8)
    )
    return rays + f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{0.5 * r:.2f}" fill="#ffd84a"/>'


def moon(cx, cy, r):
    """A crescent: a disc less a disc beside it."""
    return (f'<path d="M{cx:.2f} {cy - r:.2f} A{r} {r} 0 1 0 {cx:.2f} {cy + r:.2f} A{0.75 * r:.2f} {0.75 * r:.2f} 0 1 1 {cx:.2f} {cy - r:.2f} Z" '
            f'fill="#f2f2d8"/>')


BOULE = [0, 1, 13, 3, 15, 5, 17, 7, 19, 9, 21, 11, 23, 14, 2, 16, 4, 18, 6, 20, 8, 22, 10, 24, 12]
RODA = "1 3 1 5 1 10 1 3 1 5 1 3 1 20 1 3 1 5 1 10 1 3 1 sun 1 5 1 3 1 moon 1 3 1 5 1 3 1 10 1 5 1 3 1 20 1 3 1 5 3 10 5 3".split()
RODA_COLOURS = {"1": "#c8aa28", "3": "#1e6ebe", "5": "#962aa0", "10": "#1e8c46", "20": "#c85a14", "sun": "#dc2828", "moon": "#28283c"}


def marked_wheel(places, size):
    """A wheel of `places` (colour, emblem(x, y, rotation)), place 0 at the
    top and the rest clockwise, as game_core's wheels list them; the hub
    plain (the screen draws nothing over it)."""
    S = 800
    c = S / 2
    n = len(places)
    body = [f'<circle cx="{c}" cy="{c}" r="396" fill="#5a3416" stroke="#2e1a0a" stroke-width="6"/>']
    for i, (colour, emblem) in enumerate(places):
        path, mid = ring(c, n, i, 250, 390, colour)
        body.append(path)
        x, y = c + 325 * math.cos(mid), c + 325 * math.sin(mid)
        body.append(f'<g transform="translate({x:.2f} {y:.2f}) rotate({math.degrees(mid) + 90:.2f})">{emblem(size)}</g>')
    body.append(f'<circle cx="{c}" cy="{c}" r="250" fill="#0d3a22" stroke="#d9c27a" stroke-width="6"/>')
    body.append(f'<circle cx="{c}" cy="{c}" r="40" fill="#d9c27a"/>')
    return svg(S, S, "".join(body))


def label(text):
    """A label along the radius (the wheel of fortune's narrow sections)
    or upright (boule's), drawn in the stroke font."""
    def draw(size):
        w = text_width(text, size)
        if size < 30:
            return f'<g transform="rotate(-90)">' + glyphs(text, -w / 2, -size / 2, size, "#ffffff", 2.2) + "</g>"
        return glyphs(text, -w / 2, -size / 2, size, "#ffffff", 2.2)
    return draw


def boule_wheel():
    places = [("#1e4fc8", lambda size: star(0, 0, 30, "#f6d24a")) if n == 0 else ("#c8102e" if (n <= 12) == (n % 2 == 1) else "#1b1b1b", label(str(n))) for n in BOULE]
    return marked_wheel(places, 40)


def roda_wheel():
    emblem = {"sun": lambda size: sun(0, 0, 20), "moon": lambda size: moon(0, 0, 16)}
    return marked_wheel([(RODA_COLOURS[s], emblem.get(s, label(s))) for s in RODA], 28)


def ball(fill="#f8f8f8", stroke="#9a9a9a"):
    S = 100
    return svg(S, S, (
        '<defs><radialGradient id="b" cx="35%" cy="30%" r="70%"><stop offset="0" stop-color="#ffffff"/>'
        f'<stop offset="1" stop-color="{fill}"/></radialGradient></defs>'
        f'<circle cx="50" cy="50" r="46" fill="url(#b)" stroke="{stroke}" stroke-width="3"/>'
    ))


def die(n):
    S = 200
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
            5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}[n]
    ink = "#c8102e" if n in (1, 4) else "#1b1b1b"
    dots = "".join(f'<circle cx="{50 + 50 * x}" cy="{50 + 50 * y}" r="{22 if n == 1 else 16}" fill="{ink}"/>' for x, y in pips)
    return svg(S, S, f'<rect x="6" y="6" width="{S - 12}" height="{S - 12}" rx="30" fill="#fbf8f0" stroke="#8a7a5a" stroke-width="5"/>{dots}')


FIGURE_COLOURS = {1: "#c8102e", 6: "#c8102e", 2: "#1e8c46", 5: "#1e8c46", 3: "#1e4fc8", 4: "#1e4fc8"}


def figure_mark(n, ink):
    """Fish-prawn-crab's figure `n` (Macau 59/2004 Art. 1) in a 200 box."""
    if n == 1:  # fish
        return (f'<path d="M40 100 C70 50 130 50 150 100 C130 150 70 150 40 100 Z" fill="{ink}"/>'
                f'<path d="M150 100 L185 68 L178 100 L185 132 Z" fill="{ink}"/>'
                '<circle cx="70" cy="90" r="8" fill="#fbf8f0"/><path d="M95 75 C105 90 105 110 95 125" fill="none" stroke="#fbf8f0" stroke-width="5"/>')
    if n == 2:  # prawn: a curled body in segments, a fan tail, feelers
        segs = "".join(
            f'<circle cx="{100 + 48 * math.cos(math.radians(a)):.1f}" cy="{100 + 48 * math.sin(math.radians(a)):.1f}" r="{20 - k * 1.6:.1f}" fill="{ink}"/>'
            for k, a in enumerate(range(-150, 110, 32))
        )
        return (segs + f'<path d="M118 140 L150 170 L100 165 Z" fill="{ink}"/>'
                f'<path d="M60 80 C40 40 70 20 110 28 M62 76 C30 50 40 20 60 14" fill="none" stroke="{ink}" stroke-width="4"/>'
                '<circle cx="64" cy="84" r="5" fill="#fbf8f0"/>')
    if n == 3:  # gourd
        return (f'<circle cx="100" cy="128" r="46" fill="{ink}"/><circle cx="100" cy="70" r="30" fill="{ink}"/>'
                f'<rect x="92" y="100" width="16" height="10" fill="{ink}"/><path d="M100 42 L104 22 L120 18" fill="none" stroke="{ink}" stroke-width="6" stroke-linecap="round"/>'
                '<path d="M100 102 C88 104 88 96 100 98" fill="none" stroke="#fbf8f0" stroke-width="4"/>')
    if n == 4:  # coin: round with a square hole
        return (f'<circle cx="100" cy="100" r="62" fill="{ink}"/><circle cx="100" cy="100" r="50" fill="none" stroke="#fbf8f0" stroke-width="3"/>'
                '<rect x="82" y="82" width="36" height="36" fill="#fbf8f0"/>')
    if n == 5:  # crab: a shell, two claws, four legs a side
        legs = "".join(
            f'<path d="M{100 + sx * 40} {96 + k * 14} L{100 + sx * 78} {108 + k * 18}" stroke="{ink}" stroke-width="7" stroke-linecap="round"/>'
            for sx in (-1, 1) for k in range(3)
        )
        return (legs + f'<ellipse cx="100" cy="112" rx="50" ry="36" fill="{ink}"/>'
                f'<path d="M70 86 L52 56 M130 86 L148 56" stroke="{ink}" stroke-width="8"/>'
                f'<circle cx="48" cy="46" r="18" fill="{ink}"/><circle cx="152" cy="46" r="18" fill="{ink}"/>'
                '<path d="M40 36 L52 48 M160 36 L148 48" stroke="#fbf8f0" stroke-width="5"/>'
                '<circle cx="88" cy="100" r="6" fill="#fbf8f0"/><circle cx="112" cy="100" r="6" fill="#fbf8f0"/>')
    # rooster: a body, a head with its comb and beak, a tail of three plumes
    return (f'<ellipse cx="96" cy="122" rx="46" ry="36" fill="{ink}"/><circle cx="132" cy="70" r="22" fill="{ink}"/>'
            f'<path d="M118 90 L110 104 L140 100 Z" fill="{ink}"/>'
            f'<circle cx="124" cy="44" r="9" fill="{ink}"/><circle cx="136" cy="42" r="9" fill="{ink}"/><circle cx="147" cy="48" r="8" fill="{ink}"/>'
            '<path d="M152 66 L172 74 L152 80 Z" fill="#e0a010"/><circle cx="138" cy="66" r="5" fill="#fbf8f0"/>'
            + "".join(f'<path d="M56 112 C{30 - k * 6} {90 - k * 22} {40 - k * 4} {60 - k * 20} {60 + k * 4} {56 - k * 14}" fill="none" stroke="{ink}" stroke-width="9" stroke-linecap="round"/>' for k in range(3))
            + f'<path d="M86 156 L82 180 M106 156 L110 180" stroke="#e0a010" stroke-width="6"/>')


def figure_die(n):
    """A face of fish-prawn-crab's dice: the figure in its colour and, in a
    corner, the face's number (Art. 1: each face carries all three)."""
    S = 200
    ink = FIGURE_COLOURS[n]
    return svg(S, S, (
        f'<rect x="6" y="6" width="{S - 12}" height="{S - 12}" rx="30" fill="#fbf8f0" stroke="#8a7a5a" stroke-width="5"/>'
        + figure_mark(n, ink) + glyphs(str(n), 160, 160, 24, "#3a3a3a", 2.2)
    ))


def bingo_ball():
    S = 200
    return svg(S, S, (
        '<defs><radialGradient id="b" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#ffe27a"/>'
        '<stop offset="1" stop-color="#e08a00"/></radialGradient></defs>'
        '<circle cx="100" cy="100" r="94" fill="url(#b)" stroke="#8a5200" stroke-width="4"/>'
        '<circle cx="100" cy="100" r="58" fill="#ffffff" stroke="#8a5200" stroke-width="3"/>'
    ))


def bingo_card():
    W, H = 600, 400
    cells = []
    for r in range(3):
        for k in range(5):
            cells.append(f'<rect x="{30 + k * 108}" y="{60 + r * 108}" width="100" height="100" rx="10" fill="#ffffff" stroke="#1f5fbf" stroke-width="3"/>')
    return svg(W, H, f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="24" fill="#d8e8ff" stroke="#1f5fbf" stroke-width="6"/>' + "".join(cells))


def reel_frame():
    W, H = 1500, 720
    return svg(W, H, (
        '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6e08a"/>'
        '<stop offset="0.5" stop-color="#b8860b"/><stop offset="1" stop-color="#f6e08a"/></linearGradient></defs>'
        f'<path fill-rule="evenodd" fill="url(#g)" d="M0 24 Q0 0 24 0 L{W - 24} 0 Q{W} 0 {W} 24 L{W} {H - 24} Q{W} {H} {W - 24} {H} '
        f'L24 {H} Q0 {H} 0 {H - 24} Z M30 30 L{W - 30} 30 L{W - 30} {H - 30} L30 {H - 30} Z"/>'
        f'<rect x="30" y="30" width="{W - 60}" height="{H - 60}" fill="none" stroke="#5a3d00" stroke-width="4"/>'
    ))


def background(top, bottom, glow):
    W, H = 1920, 1080
    rays = "".join(
        f'<path d="M960 1180 L{960 + 1600 * math.cos(math.radians(a)):.1f} {1180 - 1600 * math.sin(math.radians(a)):.1f} '
        f'L{960 + 1600 * math.cos(math.radians(a + 6)):.1f} {1180 - 1600 * math.sin(math.radians(a + 6)):.1f} Z" fill="{glow}" opacity="0.07"/>'
        for a in range(12, 170, 14)
    )
    return svg(W, H, (
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{top}"/>'
        f'<stop offset="1" stop-color="{bottom}"/></linearGradient></defs><rect width="{W}" height="{H}" fill="url(#g)"/>{rays}'
    ))


def button(icon, fill):
    W, H = 240, 160
    icons = {
        "play": '<path d="M95 45 L165 80 L95 115 Z" fill="#ffffff"/>',
        "bet-minus": glyphs("-", 95, 45, 70, "#ffffff", 2.6),
        "bet-plus": glyphs("+", 95, 45, 70, "#ffffff", 2.6),
        "lines": "".join(f'<path d="M60 {60 + k * 20} L180 {60 + k * 20}" stroke="#ffffff" stroke-width="8" stroke-linecap="round"/>' for k in range(3)),
        "max-bet": '<path d="M70 110 L120 45 L170 110 Z" fill="#ffffff"/><rect x="70" y="115" width="100" height="10" fill="#ffffff"/>',
        "cash-out": '<circle cx="120" cy="80" r="40" fill="#f6d24a" stroke="#ffffff" stroke-width="6"/><path d="M120 55 L120 105 M105 90 L120 105 L135 90" stroke="#7a5a00" stroke-width="7" fill="none" stroke-linecap="round"/>',
        "help": glyphs("?", 98, 42, 76, "#ffffff", 2.6),
        "menu": "".join(f'<rect x="{78 + (k % 3) * 30}" y="{42 + (k // 3) * 30}" width="22" height="22" rx="4" fill="#ffffff"/>' for k in range(9)),
        "denomination": '<circle cx="120" cy="80" r="42" fill="#f6d24a" stroke="#ffffff" stroke-width="6"/><circle cx="120" cy="80" r="24" fill="none" stroke="#7a5a00" stroke-width="5"/>',
        "language": '<circle cx="120" cy="80" r="42" fill="none" stroke="#ffffff" stroke-width="6"/><ellipse cx="120" cy="80" rx="18" ry="42" fill="none" stroke="#ffffff" stroke-width="5"/><path d="M78 80 L162 80 M86 58 L154 58 M86 102 L154 102" stroke="#ffffff" stroke-width="5"/>',
    }
    return svg(W, H, (
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity="0.45"/>'
        f'<stop offset="0.5" stop-color="#ffffff" stop-opacity="0"/></linearGradient></defs>'
        f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="28" fill="{fill}" stroke="#ffffff" stroke-width="4"/>'
        f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="28" fill="url(#g)"/>{icons[icon]}'
    ))


def symbol(shape, fill, mark="", ink="#ffffff"):
    """A reel symbol: a rounded tile with a shape and, where the game has
    one, a stroke-font mark."""
    S = 256
    shapes = {
        "seven": glyphs("7", 58, 38, 180, fill, 2.8),
        "cherry": '<path d="M92 150 Q120 60 170 40 M160 150 Q150 90 170 40" stroke="#1e6b2a" stroke-width="9" fill="none"/>'
                  '<circle cx="90" cy="170" r="42" fill="#c8102e"/><circle cx="165" cy="168" r="42" fill="#b00d26"/>',
        "bar": '<rect x="36" y="96" width="184" height="64" rx="12" fill="#1b1b1b" stroke="#f6d24a" stroke-width="6"/>',
        "bar2": '<rect x="36" y="60" width="184" height="56" rx="12" fill="#1b1b1b" stroke="#f6d24a" stroke-width="6"/>'
                '<rect x="36" y="140" width="184" height="56" rx="12" fill="#1b1b1b" stroke="#f6d24a" stroke-width="6"/>',
        "bar3": "".join(f'<rect x="36" y="{40 + k * 62}" width="184" height="50" rx="10" fill="#1b1b1b" stroke="#f6d24a" stroke-width="5"/>' for k in range(3)),
        "double": '<circle cx="128" cy="128" r="92" fill="#5b2a86" stroke="#f6d24a" stroke-width="10"/>' + glyphs("2", 96, 78, 100, "#f6d24a", 3.0),
        "blank": '<circle cx="128" cy="128" r="10" fill="#9aa3ad"/>',
        "fish": '<path d="M40 128 Q100 50 180 128 Q100 206 40 128 Z" fill="#ff8c1a"/><path d="M178 128 L226 88 L226 168 Z" fill="#ff8c1a"/><circle cx="84" cy="118" r="10" fill="#1b1b1b"/>',
        "ship": '<path d="M36 160 L220 160 L190 206 L66 206 Z" fill="#6b3a12"/><path d="M128 40 L128 160 M128 50 L196 140 L128 140 Z" stroke="#eeeeee" stroke-width="6" fill="#eeeeee"/>',
        "pearl": '<path d="M40 150 Q128 40 216 150 Z" fill="#3f7fbf"/><circle cx="128" cy="150" r="46" fill="#f7f3ea" stroke="#c9c2b0" stroke-width="4"/>',
        "chest": '<rect x="44" y="110" width="168" height="100" rx="10" fill="#8b5a2b" stroke="#f6d24a" stroke-width="8"/><path d="M44 110 Q128 40 212 110 Z" fill="#a0692f" stroke="#f6d24a" stroke-width="8"/><rect x="116" y="120" width="24" height="34" fill="#f6d24a"/>',
        # Floresta Encantada (issue 50).
        "leaf": '<path d="M64 196 Q60 84 196 56 Q204 180 64 196 Z" fill="#3f9f3a" stroke="#1e5a1e" stroke-width="6"/><path d="M70 190 L180 70" stroke="#1e5a1e" stroke-width="6"/>',
        "mushroom": '<rect x="104" y="128" width="48" height="84" rx="16" fill="#f3ead2" stroke="#8a7a5a" stroke-width="5"/><path d="M36 140 Q128 20 220 140 Z" fill="#d42a2a" stroke="#7a1010" stroke-width="6"/>'
                    '<circle cx="96" cy="104" r="12" fill="#ffffff"/><circle cx="150" cy="86" r="10" fill="#ffffff"/><circle cx="176" cy="120" r="9" fill="#ffffff"/>',
        "owl": '<ellipse cx="128" cy="142" rx="74" ry="86" fill="#8a5a2b" stroke="#4a2a10" stroke-width="6"/><path d="M66 70 L92 96 M190 70 L164 96" stroke="#4a2a10" stroke-width="10"/>'
               '<circle cx="100" cy="122" r="26" fill="#f6d24a"/><circle cx="156" cy="122" r="26" fill="#f6d24a"/><circle cx="100" cy="122" r="11" fill="#1b1b1b"/>'
               '<circle cx="156" cy="122" r="11" fill="#1b1b1b"/><path d="M118 150 L138 150 L128 170 Z" fill="#f08a1a"/>',
        "tree": '<rect x="110" y="150" width="36" height="70" fill="#6b3a12"/><circle cx="128" cy="100" r="70" fill="#1e8c3a" stroke="#0f4a1e" stroke-width="6"/>'
                '<circle cx="92" cy="90" r="10" fill="#f6d24a"/><circle cx="150" cy="70" r="10" fill="#f6d24a"/><circle cx="160" cy="124" r="10" fill="#f6d24a"/>',
        "moon": '<circle cx="128" cy="128" r="96" fill="#1b2a5a"/><path d="M150 44 A86 86 0 1 0 150 212 A66 66 0 1 1 150 44 Z" fill="#f6e7a0" stroke="#d4b84a" stroke-width="4"/>'
                '<circle cx="186" cy="84" r="6" fill="#ffffff"/><circle cx="196" cy="150" r="4" fill="#ffffff"/>',
        # Pérolas do Dragão (issue 50).
        "koi": '<path d="M36 128 Q110 44 190 128 Q110 212 36 128 Z" fill="#f0641e" stroke="#8a2a0a" stroke-width="5"/><path d="M188 128 L230 92 L222 128 L230 164 Z" fill="#f0641e"/>'
               '<circle cx="96" cy="104" r="16" fill="#ffffff"/><circle cx="136" cy="150" r="12" fill="#ffffff"/><circle cx="72" cy="120" r="8" fill="#1b1b1b"/>',
        "lantern": '<rect x="118" y="30" width="20" height="26" fill="#b8860b"/><ellipse cx="128" cy="132" rx="76" ry="80" fill="#d41e2a" stroke="#7a0a10" stroke-width="6"/>'
                   '<path d="M128 52 L128 212 M84 64 Q64 132 84 200 M172 64 Q192 132 172 200" stroke="#f6d24a" stroke-width="5" fill="none"/><rect x="112" y="208" width="32" height="20" fill="#b8860b"/>',
        "dragon": '<path d="M40 190 Q60 70 150 70 Q220 70 214 130 Q170 104 150 130 Q190 150 176 196 Q120 150 40 190 Z" fill="#1e8c3a" stroke="#0a4a1a" stroke-width="6"/>'
                  '<circle cx="176" cy="96" r="10" fill="#f6d24a"/><path d="M96 84 L84 40 L116 74 M130 70 L130 28 L150 70" stroke="#f6d24a" stroke-width="7" fill="none"/>',
        "temple": '<path d="M28 96 L128 36 L228 96 Z" fill="#c8102e" stroke="#7a0a10" stroke-width="6"/><rect x="56" y="96" width="144" height="14" fill="#b8860b"/>'
                  '<rect x="68" y="110" width="20" height="96" fill="#c8102e"/><rect x="168" y="110" width="20" height="96" fill="#c8102e"/><rect x="108" y="140" width="40" height="66" fill="#6b3a12"/>'
                  '<rect x="40" y="206" width="176" height="16" fill="#b8860b"/>',
        "dragon-pearl": '<circle cx="128" cy="128" r="96" fill="#f6d24a" stroke="#b8860b" stroke-width="8"/><circle cx="128" cy="128" r="64" fill="#f7f3ea" stroke="#c9c2b0" stroke-width="5"/>'
                        '<circle cx="104" cy="104" r="16" fill="#ffffff"/>',
        # Minas de Ouro (issue 50).
        "ruby": '<path d="M128 36 L206 104 L128 220 L50 104 Z" fill="#d41e2a" stroke="#7a0a10" stroke-width="6"/><path d="M50 104 L206 104 M128 36 L98 104 L128 220 L158 104 Z" stroke="#ff8a8a" stroke-width="4" fill="none"/>',
        "emerald": '<path d="M92 40 L164 40 L210 86 L210 170 L164 216 L92 216 L46 170 L46 86 Z" fill="#1e9c4a" stroke="#0a4a1e" stroke-width="6"/><rect x="86" y="80" width="84" height="96" fill="#5fd48a" stroke="#0a4a1e" stroke-width="4"/>',
        "diamond": '<path d="M70 56 L186 56 L226 104 L128 218 L30 104 Z" fill="#bfe8ff" stroke="#3a7ab8" stroke-width="6"/><path d="M30 104 L226 104 M70 56 L98 104 L128 218 L158 104 L186 56 M98 104 L128 56 L158 104" stroke="#3a7ab8" stroke-width="4" fill="none"/>',
        "pickaxe": '<path d="M40 96 Q128 20 216 96 Q128 60 40 96 Z" fill="#9aa3ad" stroke="#3a3a4a" stroke-width="6"/><rect x="116" y="62" width="24" height="160" rx="8" fill="#8b5a2b" stroke="#4a2a10" stroke-width="5" transform="rotate(18 128 140)"/>',
        "royal": "",
    }
    mark_svg = glyphs(mark, 128 - text_width(mark, 150) / 2, 53, 150, ink, 2.8) if mark else ""
    return svg(S, S, (
        f'<rect x="6" y="6" width="{S - 12}" height="{S - 12}" rx="28" fill="#fdfbf3" stroke="#c9b27a" stroke-width="4"/>'
        + shapes[shape] + mark_svg
    ))


def logo(colour, emblem):
    W, H = 600, 300
    return svg(W, H, (
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{colour}"/>'
        f'<stop offset="1" stop-color="#101018"/></linearGradient></defs>'
        f'<rect x="6" y="6" width="{W - 12}" height="{H - 12}" rx="40" fill="url(#g)" stroke="#f6d24a" stroke-width="8"/>{emblem}'
    ))


def mini_die(cx, cy, size, n, angle=0):
    """A die face within a logo: its pips as on the dice (die())."""
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
            5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}[n]
    ink = "#c8102e" if n in (1, 4) else "#1b1b1b"
    h, step, r = size / 2, size / 4, size * (0.11 if n == 1 else 0.08)
    dots = "".join(f'<circle cx="{cx - step + step * x:.1f}" cy="{cy - step + step * y:.1f}" r="{r:.1f}" fill="{ink}"/>' for x, y in pips)
    return (
        f'<g transform="rotate({angle} {cx} {cy})"><rect x="{cx - h:.1f}" y="{cy - h:.1f}" width="{size}" height="{size}" rx="{size * 0.16:.1f}" '
        f'fill="#fbf8f0" stroke="#f6d24a" stroke-width="4"/>{dots}</g>'
    )


def suits_row(y, r):
    return "".join(suit_path(kind, 180 + i * 80, y, r, "#ffffff" if colour == "#1b1b1b" else "#ff5a6e") for i, (colour, kind) in enumerate(SUITS.values()))


def main():
    for suit in SUITS:
        for rank in RANKS:
            write(f"cards/{rank}{suit}.svg", card(rank, suit))
    write("cards/back.svg", card_back())
    write("cards/joker.svg", joker())
    for value, colour in CHIPS.items():
        write(f"chips/chip-{value}.svg", chip(value, colour))
    write("table/felt.svg", felt())
    write("roulette/wheel-single-zero.svg", wheel(EUROPEAN))
    write("roulette/wheel-double-zero.svg", wheel(AMERICAN))
    write("roulette/wheel-american-37.svg", wheel([n for n in AMERICAN if n != "00"]))
    write("wheels/boule.svg", boule_wheel())
    write("wheels/roda-da-sorte.svg", roda_wheel())
    write("roulette/ball.svg", ball())
    for n in range(1, 7):
        write(f"dice/die-{n}.svg", die(n))
        write(f"dice/figure-{n}.svg", figure_die(n))
    write("bingo/ball.svg", bingo_ball())
    write("bingo/card.svg", bingo_card())
    write("reels/frame.svg", reel_frame())
    write("backgrounds/game.svg", background("#0c1a3a", "#04060f", "#6fa8ff"))
    write("backgrounds/attract.svg", background("#3a0c2a", "#0f0408", "#ffcf6f"))
    for name, fill in [("play", "#1e8c3a"), ("bet-minus", "#1f5fbf"), ("bet-plus", "#1f5fbf"), ("lines", "#1f5fbf"), ("max-bet", "#c8102e"),
                       ("cash-out", "#b8860b"), ("help", "#5b5b6b"), ("menu", "#5b5b6b"), ("denomination", "#5b2a86"), ("language", "#5b5b6b")]:
        write(f"buttons/{name}.svg", button(name, fill))
    # Sevens Classic's symbols.
    sevens = {"CH": ("cherry", ""), "B1": ("bar", ""), "B2": ("bar2", ""), "B3": ("bar3", ""), "7": ("seven", ""), "W": ("double", ""), "-": ("blank", "")}
    for sym, (shape, mark) in sevens.items():
        fill = "#c8102e" if shape == "seven" else "#1b1b1b"
        write(f"games/classic-sevens/symbols/{sym}.svg", symbol(shape, fill, mark))
    # Ocean Treasure's: the royals drawn as marks, the rest as pictures.
    ocean = {"9": "#1f5fbf", "10": "#1e8c3a", "J": "#c8102e", "Q": "#6a2d91", "K": "#b8860b", "A": "#0b6e8a"}
    for sym, ink in ocean.items():
        write(f"games/ocean-treasure/symbols/{sym}.svg", symbol("royal", "#000000", sym, ink))
    for sym, shape in {"F": "fish", "SH": "ship", "W": "pearl", "S": "chest"}.items():
        write(f"games/ocean-treasure/symbols/{sym}.svg", symbol(shape, "#000000"))
    # Floresta Encantada's (issue 50): the royals in the forest's inks, the
    # rest as pictures.
    forest = {"9": "#1e6b2a", "10": "#2a5a8a", "J": "#8a3a0f", "Q": "#6a2d91", "K": "#b8860b", "A": "#c8102e"}
    for sym, ink in forest.items():
        write(f"games/floresta-243/symbols/{sym}.svg", symbol("royal", "#000000", sym, ink))
    for sym, shape in {"FO": "leaf", "CG": "mushroom", "CR": "owl", "W": "tree", "S": "moon"}.items():
        write(f"games/floresta-243/symbols/{sym}.svg", symbol(shape, "#000000"))
    # Three trees on a hill under the moon.
    trees = "".join(f'<rect x="{x - 9}" y="{y + 30}" width="18" height="40" fill="#6b3a12"/><circle cx="{x}" cy="{y}" r="{r}" fill="#1e8c3a" stroke="#0f4a1e" stroke-width="5"/>' for x, y, r in [(200, 150, 48), (300, 120, 62), (400, 150, 48)])
    write("games/floresta-243/logo.svg", logo("#0f4a2a", '<circle cx="470" cy="80" r="40" fill="#f6e7a0"/><path d="M60 250 Q300 170 540 250 Z" fill="#2a5a1e"/>' + trees))
    # Pérolas do Dragão's (issue 50): the royals in red and gold, the rest
    # as pictures; the pearl is the hold-and-spin's bonus symbol.
    dragon = {"9": "#1e6b2a", "10": "#1f5fbf", "J": "#8a3a0f", "Q": "#6a2d91", "K": "#b8860b", "A": "#c8102e"}
    for sym, ink in dragon.items():
        write(f"games/dragao-1024/symbols/{sym}.svg", symbol("royal", "#000000", sym, ink))
    for sym, shape in {"KO": "koi", "LN": "lantern", "DR": "dragon", "W": "temple", "P": "dragon-pearl"}.items():
        write(f"games/dragao-1024/symbols/{sym}.svg", symbol(shape, "#000000"))
    write("games/dragao-1024/logo.svg", logo("#7a0a10", '<circle cx="300" cy="150" r="80" fill="#f6d24a" stroke="#b8860b" stroke-width="8"/><circle cx="300" cy="150" r="52" fill="#f7f3ea"/>'
                                          '<path d="M80 230 Q200 120 300 230 T520 230" stroke="#1e8c3a" stroke-width="22" fill="none"/>'))
    # Minas de Ouro's (issue 50): the royals in the mine's inks, the gems
    # and the pickaxe as pictures.
    mine = {"9": "#5a3a1a", "10": "#1f5fbf", "J": "#8a3a0f", "Q": "#6a2d91", "K": "#b8860b", "A": "#c8102e"}
    for sym, ink in mine.items():
        write(f"games/minas-cascata/symbols/{sym}.svg", symbol("royal", "#000000", sym, ink))
    for sym, shape in {"RU": "ruby", "ES": "emerald", "DI": "diamond", "PI": "pickaxe"}.items():
        write(f"games/minas-cascata/symbols/{sym}.svg", symbol(shape, "#000000"))
    write("games/minas-cascata/logo.svg", logo("#5a3a1a", '<path d="M120 250 L220 110 L300 190 L380 90 L480 250 Z" fill="#6b4a2a"/>'
                                            '<path d="M260 150 L300 110 L340 150 L300 200 Z" fill="#bfe8ff" stroke="#3a7ab8" stroke-width="5"/>'
                                            '<path d="M190 200 L220 170 L250 200 L220 235 Z" fill="#d41e2a"/><path d="M360 205 L385 180 L410 205 L385 235 Z" fill="#1e9c4a"/>'))
    # Logos: an emblem per game (its name is set by the screen, in the
    # player's language).
    write("games/classic-sevens/logo.svg", logo("#8a0f1e", glyphs("777", 150, 70, 160, "#f6d24a", 3.0)))
    write("games/ocean-treasure/logo.svg", logo("#0b4a8a", '<path d="M60 200 Q150 120 240 200 T420 200 T600 200" stroke="#7fd4ff" stroke-width="18" fill="none"/><circle cx="300" cy="120" r="56" fill="#f7f3ea"/>'))
    poker = {
        "jacks-or-better-9-6": ("#1e5a2e", "J"), "jacks-or-better-sequential": ("#1e5a2e", "A"), "bonus-poker-8-5": ("#1f3f8a", "K"),
        "double-double-bonus-9-6": ("#6a1f8a", "A"), "deuces-wild": ("#8a4a0f", "2"), "deuces-wild-bonus": ("#8a2a0f", "2"),
        "joker-poker": ("#5b2a86", "K"), "poquer-sem-descarte": ("#0f5a6a", "Q"),
    }
    # The roulette tables: a wheel's pockets round a gold hub (below).
    # Each of a pair of tables has an emblem of its own (issue 45, defect
    # 11), not one emblem in two colours: banca francesa's three dice in a
    # row showing a "grande" (4, 5, 6); sic bo's three dice under the shaker's
    # dome.
    banca = "".join(mini_die(x, 165, 120, n, a) for x, n, a in [(175, 4, -8), (300, 5, 0), (425, 6, 8)])
    write("games/banca-francesa/logo.svg", logo("#1f3f8a", banca))
    dome = '<path d="M150 235 L150 170 C150 40 450 40 450 170 L450 235 Z" fill="#bfe3ff" fill-opacity="0.28" stroke="#f6d24a" stroke-width="6"/>'
    base = '<rect x="120" y="232" width="360" height="30" rx="12" fill="#5a3416" stroke="#f6d24a" stroke-width="5"/>'
    sic_bo = dome + "".join(mini_die(x, y, 86, n, a) for x, y, n, a in [(235, 188, 2, -12), (365, 188, 3, 10), (300, 118, 5, 4)]) + base
    write("games/cussec/logo.svg", logo("#8a0f4a", sic_bo))
    # The baccarat tables: a natural, an eight and a nine face up; the
    # no-commission table: the banker's six, which pays half there, beside
    # a coin struck through (no commission). The blackjack tables: a
    # blackjack, an ace and a king; the classic table: 21 over a chip.
    def face_card(x, angle, mark, ink):
        return (
            f'<g transform="rotate({angle} {x + 70} 250)"><rect x="{x}" y="50" width="140" height="200" rx="16" fill="#fbf8f0" stroke="#f6d24a" stroke-width="5"/>'
            + glyphs(mark, x + 70 - text_width(mark, 110) / 2, 95, 110, ink, 3.0) + "</g>"
        )
    for game, (colour, first, second) in {"bacara": ("#6a0f1e", "8", "9"), "blackjack": ("#0f4a2a", "A", "K")}.items():
        write(f"games/{game}/logo.svg", logo(colour, face_card(170, -10, first, "#1b1b1b") + face_card(290, 10, second, "#c8102e")))
    coin = (
        '<circle cx="400" cy="150" r="82" fill="#f6d24a" stroke="#fbf8f0" stroke-width="6"/>'
        '<circle cx="400" cy="150" r="58" fill="none" stroke="#b8860b" stroke-width="6"/>'
        '<path d="M340 90 L460 210" stroke="#c8102e" stroke-width="18" stroke-linecap="round"/>'
    )
    write("games/bacara-6-sem-comissao/logo.svg", logo("#0f3f5a", face_card(130, -8, "6", "#c8102e") + coin))
    # The variants (issue 49): Macau's no-commission table, its banker's 6
    # beside the struck coin on jade; EZ baccarat, the banker's three-card
    # 7 fanned (its push and its Dragon 7); the tie at 9:1, two nines side
    # by side, level.
    write("games/bacara-macau/logo.svg", logo("#0f5a4a", face_card(130, 8, "6", "#1b1b1b") + coin))
    write("games/bacara-ez/logo.svg", logo("#4a0f5a", face_card(150, -14, "2", "#1b1b1b") + face_card(230, 0, "2", "#c8102e") + face_card(310, 14, "3", "#1b1b1b")))
    write("games/bacara-empate-9/logo.svg", logo("#5a3a0f", face_card(160, 0, "9", "#1b1b1b") + face_card(300, 0, "9", "#c8102e")))
    chip_under = (
        '<ellipse cx="300" cy="222" rx="150" ry="40" fill="#c8102e" stroke="#fbf8f0" stroke-width="6"/>'
        + "".join(f'<rect x="{300 + 118 * math.cos(2 * math.pi * k / 8) - 12:.1f}" y="{222 + 31 * math.sin(2 * math.pi * k / 8) - 7:.1f}" width="24" height="14" rx="4" fill="#fbf8f0"/>' for k in range(8))
    )
    write("games/blackjack-classico/logo.svg", logo("#3a1f6a", chip_under + glyphs("21", 300 - text_width("21", 150) / 2, 30, 150, "#f6d24a", 3.4)))
    # The bingo games: a ball bearing the variant's number of balls, beside
    # a strip of a card's cells.
    for game, (colour, mark) in {"bingo-90": ("#1f5fbf", "90"), "bingo-80": ("#0f6a5a", "80"), "bingo-75": ("#8a3a0f", "75"), "bingo-30": ("#6a1f8a", "30")}.items():
        cells = "".join(f'<rect x="{330 + (k % 3) * 70}" y="{70 + (k // 3) * 70}" width="60" height="60" rx="8" fill="#fbf8f0" stroke="#f6d24a" stroke-width="3"/>' for k in range(9))
        ball_mark = glyphs(mark, 170 - text_width(mark, 90) / 2, 105, 90, "#1b1b1b", 3.0)
        write(f"games/{game}/logo.svg", logo(colour, f'<circle cx="170" cy="150" r="105" fill="#ffce3a" stroke="#f6d24a" stroke-width="6"/><circle cx="170" cy="150" r="72" fill="#ffffff"/>{ball_mark}{cells}'))
    for game, colour in {"roleta-francesa": "#0f5a2a", "roleta-americana": "#6a0f1e"}.items():
        pockets = "".join(
            f'<circle cx="{300 + 95 * math.cos(2 * math.pi * k / 12):.1f}" cy="{150 + 95 * math.sin(2 * math.pi * k / 12):.1f}" r="16" fill="{"#c8102e" if k % 2 else "#1b1b1b"}" stroke="#f6d24a" stroke-width="3"/>'
            for k in range(12)
        )
        write(f"games/{game}/logo.svg", logo(colour, f'<circle cx="300" cy="150" r="120" fill="#5a3416" stroke="#f6d24a" stroke-width="6"/>{pockets}<circle cx="300" cy="150" r="40" fill="#f6d24a"/>'))
    # Boule: a wheel of 24 red and black compartments round a blue star.
    compartments = "".join(
        f'<circle cx="{300 + 100 * math.cos(2 * math.pi * k / 24):.1f}" cy="{150 + 100 * math.sin(2 * math.pi * k / 24):.1f}" r="11" fill="{"#c8102e" if k % 2 else "#1b1b1b"}" stroke="#f6d24a" stroke-width="2"/>'
        for k in range(24)
    )
    write("games/boule/logo.svg", logo("#14306a", f'<circle cx="300" cy="150" r="122" fill="#5a3416" stroke="#f6d24a" stroke-width="6"/>{compartments}<circle cx="300" cy="150" r="52" fill="#1e4fc8" stroke="#f6d24a" stroke-width="5"/>'))
    # The wheel of fortune: 12 coloured sections and the pointer.
    colours = ["#c8a028", "#1e6ebe", "#c8a028", "#962aa0", "#c8a028", "#1e8c46"]
    sections = "".join(
        f'<path d="M300 150 L{300 + 120 * math.cos(2 * math.pi * k / 12):.1f} {150 + 120 * math.sin(2 * math.pi * k / 12):.1f} '
        f'A120 120 0 0 1 {300 + 120 * math.cos(2 * math.pi * (k + 1) / 12):.1f} {150 + 120 * math.sin(2 * math.pi * (k + 1) / 12):.1f} Z" fill="{colours[k % 6]}" stroke="#f6d24a" stroke-width="3"/>'
        for k in range(12)
    )
    write("games/roda-da-sorte/logo.svg", logo("#5a1a0f", sections + '<circle cx="300" cy="150" r="24" fill="#f6d24a"/><path d="M285 14 L315 14 L300 44 Z" fill="#f7f3ea"/>'))
    # Fantan: a heap of beads and the remainder counted out beside it.
    beads = "".join(
        f'<circle cx="{220 + 80 * math.sqrt((k + 0.5) / 30) * math.cos(k * 2.39996):.1f}" cy="{150 + 80 * math.sqrt((k + 0.5) / 30) * math.sin(k * 2.39996):.1f}" r="11" fill="#f7f3ea" stroke="#9a9a9a" stroke-width="2"/>'
        for k in range(30)
    )
    counted = "".join(f'<circle cx="{380 + 44 * k}" cy="150" r="16" fill="#f6d24a" stroke="#b8860b" stroke-width="3"/>' for k in range(3))
    write("games/fantan/logo.svg", logo("#2a4a1a", beads + counted))
    # Peixe-camarão-caranguejo: three figure dice, fish, prawn and crab.
    faces = "".join(
        f'<g transform="translate({x} {y}) scale(0.6) rotate({a} 100 100)">'
        f'<rect x="6" y="6" width="188" height="188" rx="30" fill="#fbf8f0" stroke="#f6d24a" stroke-width="8"/>{figure_mark(n, FIGURE_COLOURS[n])}</g>'
        for x, y, a, n in [(100, 60, -12, 1), (240, 110, 6, 2), (380, 55, 14, 5)]
    )
    write("games/peixe-camarao-caranguejo/logo.svg", logo("#5a1030", faces))
    # Póquer de 3 cartas: three pictures fanned, its best hand.
    fan = "".join(
        f'<g transform="rotate({a} 300 260)"><rect x="{300 - 55}" y="50" width="110" height="160" rx="12" fill="#fdfbf3" stroke="#f6d24a" stroke-width="4"/>'
        + glyphs(r, 300 - text_width(r, 70) / 2, 95, 70, colour, 5.0) + "</g>"
        for a, r, colour in [(-22, "J", "#1b1b1b"), (0, "Q", "#c8102e"), (22, "K", "#1b1b1b")]
    )
    write("games/poquer-3-cartas/logo.svg", logo("#1a3a5a", fan))
    # Craps: two dice rolled, a natural (5 and 6), on the table's green.
    write("games/craps/logo.svg", logo("#0f4a2a", '<rect x="90" y="200" width="420" height="12" rx="6" fill="#f6d24a"/>' + mini_die(230, 130, 110, 5, -14) + mini_die(370, 140, 110, 6, 11)))
    # Desafio ao casino: two cards face to face, the higher one forward.
    faced = "".join(
        f'<g transform="rotate({a} {x} 150)"><rect x="{x - 58}" y="70" width="116" height="164" rx="12" fill="#fdfbf3" stroke="#f6d24a" stroke-width="4"/>'
        + glyphs(r, x - text_width(r, 76) / 2, 112, 76, colour, 5.0) + "</g>"
        for x, a, r, colour in [(220, -10, "K", "#1b1b1b"), (380, 10, "A", "#c8102e")]
    )
    write("games/desafio-ao-casino/logo.svg", logo("#3a1a5a", faced + '<path d="M300 112 L316 150 L300 188 L284 150 Z" fill="#f6d24a"/>'))
    for game, (colour, mark) in poker.items():
        write(f"games/{game}/logo.svg", logo(colour, suits_row(230, 26) + glyphs(mark, 300 - text_width(mark, 130) / 2, 40, 130, "#f6d24a", 3.0)))


if __name__ == "__main__":
    main()
