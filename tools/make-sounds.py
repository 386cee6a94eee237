#!/usr/bin/env python3
"""Make the cabinet's sounds (assets/sounds/*.wav): short synthesized tones,
made by the project, free to ship. 16-bit mono PCM at 22,050 Hz.

    python3 tools/make-sounds.py

reel-stop  a short low thud as each reel stops
card       a soft tick as a card is dealt or turned
win        a rising major arpeggio for a win
alarm      a two-tone alarm for a door, a tilt or a hand-pay
"""
import math
import os
import struct
import wave

RATE = 22050
OUT = os.path.join(os.path.dirname(__file__), "..", "assets", "sounds")


def tone(freq, seconds, volume=0.5, decay=8.0, harmonics=(1.0, 0.3, 0.1)):
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        env = math.exp(-decay * t) * min(1.0, i / (RATE * 0.004))
        v = sum(a * math.sin(2 * math.pi * freq * (k + 1) * t) for k, a in enumerate(harmonics))
        out.append(volume * env * v / sum(harmonics))
    return out


def write(name, samples):
    os.makedirs(OUT, exist_ok=True)
    with wave.open(os.path.join(OUT, name + ".wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples))


write("reel-stop", tone(110, 0.12, 0.7, decay=30.0, harmonics=(1.0, 0.5, 0.25)))
write("card", tone(1800, 0.05, 0.35, decay=60.0, harmonics=(1.0, 0.2)))
win = []
for f in (523.25, 659.25, 783.99, 1046.5):
    win += tone(f, 0.14, 0.5, decay=6.0)
write("win", win + tone(1046.5, 0.4, 0.5, decay=4.0))
alarm = []
for _ in range(3):
    alarm += tone(880, 0.25, 0.6, decay=0.5, harmonics=(1.0, 0.4, 0.2)) + tone(660, 0.25, 0.6, decay=0.5, harmonics=(1.0, 0.4, 0.2))
write("alarm", alarm)
