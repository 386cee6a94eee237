//! Issue 49's sweep: every number a table game's paytable sets, in every
//! shipped sample of the table kinds (blackjack, bingo, baccarat,
//! roulette, banca francesa, sic bo), replaced in turn by the values that
//! broke the arithmetic before (0, 1, 2^63 + 1, 10^12, 2^64 − 1). Each
//! variant must either be refused with a message naming the file and a
//! line, or compile and have its exact figures and its floor verdict
//! computed; nothing may panic (exit 101 before, with no line named).
#![allow(clippy::unwrap_used)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use paytables::check::Floor;
use paytables::error::PaytableError;

const EXTREMES: [&str; 5] = ["0", "1", "9223372036854775809", "1000000000000", "18446744073709551615"];

/// What compiling and analysing one paytable text led to: refused (with
/// its message), or analysed.
fn analyse(file: &str, src: &str) -> Result<(), String> {
    let refused = |e: PaytableError| e.to_string();
    let floor = Floor::legal_minimum();
    let head = src.lines().find(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty()).unwrap_or("");
    if head.starts_with("BlackjackPaytable") {
        let g = paytables::blackjack::compile_blackjack(file, src).map_err(refused)?;
        let _ = paytables::blackjack::refusals(file, src, &g, &paytables::blackjack::figures(&g), &floor);
    } else if head.starts_with("BingoPaytable") {
        let g = paytables::bingo::compile_bingo(file, src).map_err(refused)?;
        let _ = paytables::bingo::refusals(file, src, &g, &paytables::bingo::figures(&g), &floor);
    } else if head.starts_with("BaccaratPaytable") {
        let g = paytables::baccarat::compile_baccarat(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::baccarat::game_figures(&g), &floor);
    } else if head.starts_with("RoulettePaytable") {
        let g = paytables::roulette::compile_roulette(file, src).map_err(refused)?;
        let _ = paytables::roulette::refusals(&g, &paytables::roulette::figures(&g), &floor);
    } else if head.starts_with("BancaFrancesaPaytable") {
        paytables::dice::compile_banca_francesa(file, src).map_err(refused)?;
    } else if head.starts_with("SicBoPaytable") {
        paytables::dice::compile_sic_bo(file, src).map_err(refused)?;
    } else if head.starts_with("CrapsPaytable") {
        let g = paytables::craps::compile_craps(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::craps::craps_figures(&g), &floor);
    } else if head.starts_with("DesafioAoCasinoPaytable") {
        let g = paytables::desafio_ao_casino::compile_desafio_ao_casino(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::desafio_ao_casino::desafio_figures(&g), &floor);
    } else if head.starts_with("Poquer3CartasPaytable") {
        let g = paytables::poquer_3_cartas::compile_poquer_3_cartas(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::poquer_3_cartas::poquer_3_cartas_figures(), &floor);
    } else if head.starts_with("FishPrawnCrabPaytable") {
        let g = paytables::fish_prawn_crab::compile_fish_prawn_crab(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::fish_prawn_crab::fish_prawn_crab_figures(&g), &floor);
    } else if head.starts_with("FantanPaytable") {
        let g = paytables::fantan::compile_fantan(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::fantan::fantan_figures(), &floor);
    } else if head.starts_with("RodaDaSortePaytable") {
        let g = paytables::roda_da_sorte::compile_roda_da_sorte(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::roda_da_sorte::roda_da_sorte_figures(), &floor);
    } else if head.starts_with("BoulePaytable") {
        let g = paytables::boule::compile_boule(file, src).map_err(refused)?;
        let _ = paytables::table_bet::refusals(&g.id, &paytables::boule::boule_figures(), &floor);
    } else {
        panic!("{file}: not a table game's paytable: {head}");
    }
    Ok(())
}

/// Every `field: 123` of a paytable's text outside comments: the field,
/// and where its number starts and how long it is.
fn numbers(src: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let code = line.split("//").next().unwrap_or("");
        let bytes = code.as_bytes();
        let mut i = 0;
        while let Some(k) = code[i..].find(": ").map(|k| i + k) {
            let start = code[..k].rfind(|c: char| !(c.is_ascii_lowercase() || c == '_')).map_or(0, |s| s + 1);
            let digits = bytes[k + 2..].iter().take_while(|b| b.is_ascii_digit()).count();
            let after = bytes.get(k + 2 + digits).copied().unwrap_or(b' ');
            if start < k && digits > 0 && !after.is_ascii_alphanumeric() && after != b'.' {
                out.push((code[start..k].to_owned(), offset + k + 2, digits));
            }
            i = k + 2;
        }
        offset += line.len();
    }
    out
}

#[test]
fn every_number_of_every_table_game_at_its_extremes_is_refused_by_line_or_analysed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/paytables");
    let tables = [
        "Blackjack",
        "Bingo",
        "Baccarat",
        "Roulette",
        "BancaFrancesa",
        "SicBo",
        "Boule",
        "RodaDaSorte",
        "Fantan",
        "FishPrawnCrab",
        "Poquer3Cartas",
        "DesafioAoCasino",
        "Craps",
    ];
    let (mut files, mut cases, mut refused) = (0, 0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        if !tables.iter().any(|t| src.contains(&format!("{t}Paytable("))) {
            continue;
        }
        files += 1;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(analyse(&name, &src), Ok(()), "the sample itself compiles");
        for (field, at, len) in numbers(&src) {
            for value in EXTREMES {
                let text = format!("{}{value}{}", &src[..at], &src[at + len..]);
                cases += 1;
                match catch_unwind(AssertUnwindSafe(|| analyse(&name, &text))) {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => {
                        refused += 1;
                        assert!(e.contains(&format!("{name}:")), "{field} = {value} refused without its file and line: {e}");
                    }
                    Err(_) => panic!("{name}: {field} = {value} panicked"),
                }
            }
        }
    }
    assert!(files >= 14 && cases >= 300 && refused > 0, "{files} files, {cases} cases, {refused} refused");
}
