//! Draw poker and póquer sem descarte: check; and `paytable strategy`, the
//! holds of a draw-poker hand by their exact value, or blackjack's table.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;
use paytables::poker_compile::Kind;

use super::{blackjack, kind, read, report, threads};

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
