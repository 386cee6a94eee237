//! Draw poker and póquer sem descarte: check; and `paytable strategy`, the
//! holds of a draw-poker hand by their exact value, or blackjack's table.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;
use paytables::poker_compile::Kind;

use super::{blackjack, kind, read, report, threads, verdict};

pub(super) fn load_draw(file: &std::path::Path) -> Result<(game_core::draw_poker::DrawPokerGame, Option<String>)> {
    Ok(paytables::poker_compile::compile_draw(&file.display().to_string(), &read(file)?)?)
}

pub(super) fn load_stud(file: &std::path::Path) -> Result<(game_core::stud_poker::StudPokerGame, Option<String>)> {
    Ok(paytables::poker_compile::compile_stud(&file.display().to_string(), &read(file)?)?)
}

pub(super) fn draw_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (game, odds) = load_draw(file)?;
    let checked = paytables::draw_check::check(&game, &floor, odds.as_deref(), threads());
    let warnings = paytables::poker_compile::draw_warnings(&file.display().to_string(), &read(file)?);
    report(file, json, &checked.report, checked.refusals.iter().map(|r| r.to_string()).collect(), &warnings)
}

pub(super) fn stud_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (game, odds) = load_stud(file)?;
    let checked = paytables::stud_math::check(&game, &floor, odds.as_deref(), threads());
    report(file, json, &checked.report, checked.refusals.iter().map(|r| r.to_string()).collect(), &[])
}

/// The PAR sheet of a poker game (issue 77, defect 8): its exact figures
/// under optimal play, as `check` computes them, in Markdown, and how its
/// play is read; refused, with the refusals, where `check` refuses.
pub(super) fn par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (id, name, figures, refusals, play) = if kind(file)? == Kind::DrawPoker {
        let (game, odds) = load_draw(file)?;
        let checked = paytables::draw_check::check(&game, &floor, odds.as_deref(), threads());
        let play = format!(
            "Optimal play holds, of each deal, the cards whose draw has the highest exact expected pay; every figure above is that play's. \
             The holds of any deal, each with its exact value: `paytable strategy {} As Kd 10h 2c 3s`.",
            file.display()
        );
        (game.id.clone(), game.name.clone(), checked.report.to_string(), checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), play)
    } else {
        let (game, odds) = load_stud(file)?;
        let checked = paytables::stud_math::check(&game, &floor, odds.as_deref(), threads());
        let play = "Optimal play raises a hand exactly where raising's expected result, over every dealer hand the other cards leave, \
                    is above folding's (the ante lost); `raise %` above is how often it does."
            .to_owned();
        (game.id.clone(), game.name.clone(), checked.report.to_string(), checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), play)
    };
    verdict(file, &refusals, true)?;
    // The sheet is the same on every run: the analysis's time is left out.
    let figures: String = figures.lines().filter(|l| !l.starts_with("exact analysis:")).map(|l| format!("{l}\n")).collect();
    std::fs::create_dir_all(out).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let path = out.join(format!("{id}-par.md"));
    let body = format!(
        "# PAR sheet — {name} ({id})\n\nExact figures under optimal play: every deal enumerated, no simulation.\n\n```\n{figures}```\n\n## Play\n\n{play}\n"
    );
    std::fs::write(&path, body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}

pub(super) fn strategy(file: &std::path::Path, cards: &[String], coins: Option<u32>) -> Result<ExitCode> {
    if kind(file)? == Kind::Blackjack {
        let game = blackjack::load(file)?;
        let f = paytables::blackjack::figures(&game);
        print!("{}", paytables::blackjack::strategy_text(&game, &f.strategy));
        return Ok(ExitCode::SUCCESS);
    }
    if kind(file)? != Kind::DrawPoker {
        return Err(anyhow!("{}: strategy is for draw-poker and blackjack paytables", file.display()));
    }
    if cards.is_empty() {
        return Err(anyhow!("{}: name the five cards to hold from, like As Kd 10h 2c Jk", file.display()));
    }
    let (game, _) = load_draw(file)?;
    let hand = game_core::cards::parse_hand(cards)?;
    if game.wild != game_core::draw_poker::Wild::Joker && hand.contains(&game_core::cards::Card::JOKER) {
        return Err(anyhow!("{} has no joker in its deck", game.name));
    }
    let coins = coins.unwrap_or_else(|| game.max_coins());
    if !game.coins.contains(&coins) {
        return Err(anyhow!("{coins} coins is not a bet {} offers ({:?})", game.name, game.coins));
    }
    let mut values = paytables::draw_math::hold_values(&game, &hand, coins);
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.0.cmp(&b.0.0)));
    let shown: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
    let dealt = game.evaluate(&hand).map_or("nothing".to_owned(), |e| game.entries[e].name.clone());
    println!("{} — {} at {coins} coin(s); dealt: {}", game.name, shown.join(" "), dealt);
    println!("{:>4}  {:<26} {:>14}  exact", "", "hold", "EV per coin");
    for (i, (hold, ev)) in values.iter().enumerate() {
        let mark = if i == 0 { "best" } else { "" };
        let held: String = (0..5).map(|k| if hold.holds(k) { format!("{:<4}", hand[k].to_string()) } else { "--  ".to_owned() }).collect();
        println!("{mark:>4}  {held:<26} {:>14.8}  {}/{}", num_traits::ToPrimitive::to_f64(ev).unwrap_or(f64::NAN), ev.numer(), ev.denom());
    }
    Ok(ExitCode::SUCCESS)
}
