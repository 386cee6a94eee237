#!/usr/bin/env bash
# The README's screenshots (issue 45, defect 12), taken from the retail
# cabinet as a floor runs it: production mode on a software TPM, installed
# by tools/run-cabinet.sh into a folder of its own (EGM_VAR, never var/),
# at 1920x1080 under a private Xvfb, played only as a player and an
# operator can (the operator panel's note buttons, the player's keys and
# touches; the retail build has no development keys). Each screen is the
# cabinet's own screenshot (F12), written to docs/screenshots/NAME.png.
#
#   tools/readme-screenshots.sh
#   EGM_PROFILE=dev tools/readme-screenshots.sh   (the same retail cabinet,
#                                                 unoptimised: no release build)
#
# Controls are found by their text in the layout the cabinet writes beside
# each screenshot (NNN-label.layout: source x0 y0 x1 y1 text), so nothing
# here knows a pixel of any screen.
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/screenshots
work="$(mktemp -d)"
display=":$((150 + RANDOM % 50))"
export EGM_VAR="$work/var" EGM_TPM_PORT="$((24000 + 2 * (RANDOM % 500)))"
EGM_OPERATOR_PIN="$(printf '%05d%05d' $((RANDOM % 100000)) $((RANDOM % 100000)))"
export EGM_OPERATOR_PIN
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
cleanup() {
    [ -n "${cab:-}" ] && kill -- -"$cab" 2>/dev/null || true
    sleep 1
    kill "$xvfb" 2>/dev/null || true
    pkill -f "swtpm socket.*port=$EGM_TPM_PORT" 2>/dev/null || true
    # EGM_KEEP_SHOTS=dir keeps every screenshot taken (a failed run's evidence).
    [ -n "${EGM_KEEP_SHOTS:-}" ] && cp -r "$work/shots" "$EGM_KEEP_SHOTS" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
export DISPLAY="$display" XDG_RUNTIME_DIR="$work"
shots="$work/shots"
setsid tools/run-cabinet.sh --size 1920x1080 --screenshot-dir "$shots" >"$work/log" 2>&1 &
cab=$!
for _ in $(seq 1 600); do
    id="$(xdotool search --name "EGM cabinet" 2>/dev/null | head -1 || true)"
    [ -n "$id" ] && break
    kill -0 "$cab" 2>/dev/null || { cat "$work/log"; echo "the cabinet did not start" >&2; exit 1; }
    sleep 0.5
done
xdotool windowfocus "$id"
sleep 4

key() { xdotool key --delay 80 "$@"; sleep 0.4; }
count() { find "$shots" -maxdepth 1 -name '*-f12.png' 2>/dev/null | wc -l; }
# A screenshot now (F12); prints its path once it and its layout are written.
snap() {
    local n png
    n="$(count)"
    xdotool key F12
    for _ in $(seq 1 100); do
        [ "$(count)" -gt "$n" ] && break
        sleep 0.1
    done
    png="$(find "$shots" -maxdepth 1 -name '*-f12.png' | sort | tail -1)"
    for _ in $(seq 1 50); do
        [ -f "${png%.png}.layout" ] && break
        sleep 0.1
    done
    sleep 0.2
    echo "$png"
}
# Keep a screenshot for the README.
keep() {
    local png
    png="$(snap)"
    cp "$png" "$out/$1.png"
    echo "$out/$1.png: $(head -c 120 "${png%.png}.txt" | tr '\n' ' ')"
}
# Click where the awk program $2 (given the layout's lines, each field and
# `t`, the text alone) prints "x y" on a fresh screenshot; $1 names what was
# sought, for the error. Extra arguments are awk's (-v name=value).
click_found() {
    local what="$1" program="$2" png at
    shift 2
    png="$(snap)"
    at="$(awk "$@" '{ t = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", t) } '"$program" "${png%.png}.layout")"
    [ -n "$at" ] || { echo "no $what on screen ($png)" >&2; return 1; }
    # shellcheck disable=SC2086
    xdotool mousemove $at click 1
    sleep 0.5
}
# Touch the middle of the first text on screen that starts with $1.
touch_text() {
    click_found "text \"$1\"" 'index(t, want) == 1 { printf "%d %d\n", ($2 + $4) / 2, ($3 + $5) / 2; exit }' -v want="$1"
}
# Fold the operator panel (the retail build's stand-in for the devices)
# by its arrow, left of its title, once the note is in.
fold_panel() {
    click_found "operator panel" 't == "Moedeiro de notas" { x = $2 } t == "Painel do operador" { y = ($3 + $5) / 2 }
        END { if (x && y) printf "%d %d\n", x + 10, y }'
}
# Folded, the panel is narrower (it stands at the screen's right edge):
# its arrow is found again, left of its title (40 pixels at 1920x1080).
unfold_panel() {
    click_found "operator panel's title" 't == "Painel do operador" { printf "%d %d\n", $2 - 40, ($3 + $5) / 2; exit }'
    sleep 0.5
}
# The audit menu's recall of the round just played (issue 75: every kind
# recalled in pictures), kept as recall-$1: the attendant's key on the
# operator panel, the RECALL tab (the newest round is selected), the key
# again to leave.
recall_of() {
    unfold_panel
    touch_text "Chave do empregado"
    sleep 1.5
    touch_text "RECALL"
    sleep 1
    keep "recall-$1"
    touch_text "Chave do empregado"
    sleep 1
    fold_panel
}
# Press a deck button: its art stands above its label.
press() {
    click_found "button \"$1\" on the deck" 't == want && $3 > 900 { printf "%d %d\n", ($2 + $4) / 2, $3 - 70; exit }' -v want="$1"
}
# Choose a game from the game menu by its name.
choose() {
    press "JOGOS"
    sleep 1
    touch_text "$1"
    sleep 1.5
}

mkdir -p "$out"
keep attract
touch_text "20.00 EUR"        # the operator panel's 20 € note
sleep 1
fold_panel
press "JOGOS"
sleep 1
keep game-menu
touch_text "Tesouro do Oceano"
sleep 1.5
key space
sleep 5
keep reels
key Return
sleep 1
recall_of reels
choose "Jacks or Better"
key space
sleep 1.5
keep draw-poker
key space
sleep 1.5
key Return
sleep 1
recall_of draw-poker
choose "Póquer sem Descarte"
key space
sleep 2
key F1
sleep 4
keep stud-poker
recall_of stud-poker
choose "Roleta Francesa"
touch_text "ENCARNADO" || true
touch_text "1ª DÚZIA" || true
touch_text "17" || true
key space
sleep 9
keep roulette
recall_of roulette
choose "Banca Francesa"
touch_text "GRANDE" || true
key space
sleep 6
keep dice
key space
sleep 4
recall_of banca-francesa
choose "Cussec (Sic Bo)"
touch_text "PEQUENO" || true
key space
sleep 5
keep sic-bo
recall_of sic-bo
choose "Bacará"
touch_text 'PONTO\\n1:1'        # the player's spot (a banker chip at 1 cent is refused: 20-cent multiples); awk reads \\ as one backslash
key space
sleep 4
keep baccarat
recall_of baccarat
choose "Blackjack"
key space
sleep 2
keep blackjack
# Stand on every hand (declining insurance if offered) until the round
# ends; on 11 or less a hand may not stand (BJ 21), so it draws.
for _ in 1 2 3 4 5 6 7 8; do
    touch_text "SEM SEGURO" 2>/dev/null || touch_text "FICAR" 2>/dev/null || touch_text "PEDIR CARTA" 2>/dev/null || break
    sleep 1
done
sleep 2
recall_of blackjack
choose "Bingo 90"
key space
sleep 8
keep bingo
key F2 F2 F2
sleep 3
recall_of bingo
# The seeds' other house-banked games (issue 72).
choose "Boule"
touch_text "VERMELHO" || true
key space
sleep 8
keep boule
recall_of boule
choose "Roda da Sorte"
touch_text "SOL" || true
key space
sleep 12
keep roda-da-sorte
recall_of roda-da-sorte
choose "Fantan"
touch_text "FAN 1" || true
key space
sleep 9
keep fantan
recall_of fantan
choose "Peixe"
touch_text "PEQUENO" || true
key space
sleep 5
keep fish-prawn-crab
recall_of fish-prawn-crab
choose "Póquer de 3"
key space
sleep 4
keep poquer-3-cartas
recall_of poquer-3-cartas
choose "Desafio"
touch_text "APOSTA DE EMPATE" || true
key space
sleep 3
key F1                          # war, when the cards tie
sleep 4
keep desafio-ao-casino
recall_of desafio-ao-casino
choose "Craps"
touch_text "PASS LINE" || true
touch_text "FIELD" || true
key space
sleep 15
keep craps
recall_of craps
key h
sleep 1
keep help
key h
key r
sleep 1
keep history
echo "done: $(ls "$out")"
