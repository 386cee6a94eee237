//! `egm-host-soak CONFIG DB ROUNDS`: a soak workload that drives the real
//! game host (`game-host`) over every kind of game it hosts — reels with
//! double-up, draw poker (deal, holds, draw, double-up), póquer sem descarte
//! (ante, raise or fold), roulette (a random layout of chips and call bets),
//! banca francesa and sic bo (random layouts)
//! — with notes in and tickets out and back, and
//! reports on stdout each fact *after* the host committed it. On start the
//! host itself resumes a round a kill interrupted (M-36), and the workload
//! finishes it through the same calls a player would make. The
//! host fault-injection test kills it at random points (`kill -9`).

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use game_core::baccarat::Spot as BaccaratSpot;
use game_core::boule::Spot as BouleSpot;
use game_core::desafio_ao_casino::TieChoice;
use game_core::dice::banca_francesa::Chance;
use game_core::dice::sic_bo::Spot as SicBoSpot;
use game_core::double_up::Colour;
use game_core::fantan::Spot as FantanSpot;
use game_core::roda_da_sorte::Section;
use game_core::roulette::{CallBet, Spot, inside_bets};
use game_core::stud_poker::Decision;
use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::kinds::baccarat::Baccarat;
use game_host::kinds::banca_francesa::BancaFrancesa;
use game_host::kinds::bingo::{Bingo, BingoDecision};
use game_host::kinds::blackjack::Blackjack;
use game_host::kinds::boule::Boule;
use game_host::kinds::craps::Craps;
use game_host::kinds::desafio_ao_casino::DesafioAoCasino;
use game_host::kinds::draw_poker::{DrawDecision, DrawPoker};
use game_host::kinds::fantan::Fantan;
use game_host::kinds::fish_prawn_crab::FishPrawnCrab;
use game_host::kinds::roda_da_sorte::RodaDaSorte;
use game_host::kinds::roulette::{Roulette, RouletteEdit};
use game_host::kinds::sic_bo::SicBo;
use game_host::kinds::stud_poker::StudPoker;
use game_host::round::Phase;
use game_host::session::Session;
use meters::{GameRng, StreamRng};

fn say(line: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// Report the round the host just settled (the newest of its history).
fn settled(s: &Session) -> Result<()> {
    let h = s.history().last().ok_or_else(|| anyhow!("no settled round in the history"))?;
    say(&format!("settled {} {}", h.round, h.win))
}

/// Finish whatever round is open, as a player would: reveal, draw or
/// decide, gamble now and then, collect.
fn finish(s: &mut Session, player: &mut StreamRng) -> Result<()> {
    let before = s.history().len();
    // A blackjack round of many splits takes many decisions.
    for _ in 0..400 {
        if !s.in_round() {
            break;
        }
        match s.round_info().map(|r| r.phase) {
            Some(Phase::Presenting) => {
                s.revealed();
                continue;
            }
            Some(Phase::Decisions) => {
                if let Some(legal) = s.round::<Blackjack>().map(|r| r.state.legal()) {
                    // Any decision the round offers, at random.
                    let a = legal.get(player.index(legal.len().max(1))).copied();
                    if let Some(a) = a {
                        s.decide::<Blackjack>(a);
                    }
                } else if s.rules::<Bingo>().is_some() {
                    // An extra ball two times in three, else stop; a ball
                    // the credit cannot cover is refused: stop then.
                    let d = if player.uniform(3) == 0 { BingoDecision::Stop } else { BingoDecision::Buy };
                    if !s.decide::<Bingo>(d) {
                        s.decide::<Bingo>(BingoDecision::Stop);
                    }
                } else if s.rules::<DesafioAoCasino>().is_some() {
                    // Equal cards: war two times in three, else surrender.
                    s.decide::<DesafioAoCasino>(if player.uniform(3) == 0 { TieChoice::Surrender } else { TieChoice::War });
                } else if s.rules::<DrawPoker>().is_some() {
                    for i in 0..5 {
                        if player.uniform(2) == 0 {
                            s.decide::<DrawPoker>(DrawDecision::Toggle(i));
                        }
                    }
                    s.decide::<DrawPoker>(DrawDecision::Draw);
                } else {
                    s.decide::<StudPoker>(if player.uniform(3) == 0 { Decision::Fold } else { Decision::Raise });
                }
                continue;
            }
            _ => {}
        }
        if s.double_up_offered() && player.uniform(3) == 0 {
            s.gamble(if player.uniform(2) == 0 { Colour::Red } else { Colour::Black });
        } else {
            s.collect();
        }
    }
    if s.in_round() {
        return Err(anyhow!("the round did not finish: {:?}", s.message_text()));
    }
    if s.history().len() > before {
        settled(s)?;
    }
    Ok(())
}

/// A roulette layout: clear the cloth, then a few chips on random spots of
/// its cloth and, on a French wheel, now and then a call bet (a refused
/// chip, over a limit, is simply not placed).
fn roulette_bet(s: &mut Session, player: &mut StreamRng) {
    let Some(game) = s.rules::<Roulette>().map(|r| r.0.clone()) else { return };
    s.command(Command::EditBet { edit: serde_json::json!("Clear") });
    let mut spots: Vec<Spot> = inside_bets(game.wheel, game.top_line).into_iter().map(Spot::Numbers).collect();
    spots.extend(Spot::outside());
    for _ in 0..1 + player.uniform(4) {
        let spot = spots[player.index(spots.len())].clone();
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": RouletteEdit::Place { spot } }) });
    }
    if game.call_bets && player.uniform(3) == 0 {
        let bet = [CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins][player.index(3)];
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": RouletteEdit::Call { bet } }) });
    }
    if s.stake_credits() == 0 {
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": RouletteEdit::Place { spot: Spot::Red } }) });
    }
}

/// A dice table's layout: clear the cloth, then a chip or two on random
/// spots (a refused chip, over a limit, is simply not placed; an empty
/// cloth gets a chip on its first spot).
fn dice_bet(s: &mut Session, player: &mut StreamRng, spots: &[serde_json::Value]) {
    s.command(Command::EditBet { edit: serde_json::json!("Clear") });
    for _ in 0..1 + player.uniform(3) {
        let spot = spots[player.index(spots.len())].clone();
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) });
    }
    if s.stake_credits() == 0 {
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spots[0].clone() } } }) });
    }
}

/// A baccarat layout: clear the table, then one to three chips on random
/// spots; a banca chip is the table's fourth chip value (20 credits on the
/// 5% table), whose commission is whole cents at every denomination.
fn baccarat_bet(s: &mut Session, player: &mut StreamRng) {
    s.command(Command::EditBet { edit: serde_json::json!("Clear") });
    for _ in 0..1 + player.uniform(3) {
        // The spots this table offers (its side bets too, issue 49).
        let offered = s.rules::<Baccarat>().map(|g| g.0.spots()).unwrap_or_else(|| vec![BaccaratSpot::Player]);
        let spot = offered[player.index(offered.len())];
        let banca = spot == BaccaratSpot::Banker;
        if banca {
            s.adjust_bet(BetControl::Amount, 3);
        }
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) });
        if banca {
            s.adjust_bet(BetControl::Amount, -3);
        }
    }
    if s.stake_credits() == 0 {
        s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": BaccaratSpot::Player } } }) });
    }
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: egm-host-soak CONFIG DB ROUNDS";
    let config = PathBuf::from(args.next().context(usage)?);
    let db = PathBuf::from(args.next().context(usage)?);
    let rounds: u64 = args.next().context(usage)?.parse()?;
    let mut s = boot(&BootOptions { config, db, lab_seed: None, demo: false }).map_err(|e| anyhow!(e))?;
    let mut player = StreamRng::from_entropy()?;
    // The host resumed an interrupted round at its step: finish it.
    let open = s.open_round_id();
    if let Some(id) = open {
        say(&format!("resumed {id}"))?;
        finish(&mut s, &mut player)?;
    } else if let Some(h) = s.history().last() {
        // A decided stud round is finished by the resume itself.
        say(&format!("resumed {}", h.round))?;
        settled(&s)?;
    }
    // Booted and any interrupted round finished: the kill test's delay
    // counts from here, so that its kills land in play, not in the boot.
    say("ready")?;
    for i in 0..rounds {
        if s.machine().credit() < 2_000 {
            s.insert_note(5_000);
            if let Some(m) = s.message_text() {
                return Err(anyhow!("note refused: {m}"));
            }
            say("note 5000")?;
        }
        s.choose_game(player.index(s.games().len()));
        s.adjust_bet(BetControl::Lines, i32::try_from(player.uniform(3))? - 1);
        if player.uniform(2) == 0 {
            s.adjust_bet(BetControl::SideBet, 1); // stud's jackpot bet, half the time
        }
        if s.rules::<Roulette>().is_some() {
            roulette_bet(&mut s, &mut player);
        }
        if s.rules::<BancaFrancesa>().is_some() {
            let spots = [Chance::Ases, Chance::Pequeno, Chance::Grande].map(|c| serde_json::to_value(c).unwrap_or_default());
            dice_bet(&mut s, &mut player, &spots);
        }
        if s.rules::<SicBo>().is_some() {
            let spots: Vec<serde_json::Value> = SicBoSpot::all().iter().map(|c| serde_json::to_value(c).unwrap_or_default()).collect();
            dice_bet(&mut s, &mut player, &spots);
        }
        if s.rules::<Boule>().is_some() {
            let spots: Vec<serde_json::Value> = BouleSpot::all().iter().map(|c| serde_json::to_value(c).unwrap_or_default()).collect();
            dice_bet(&mut s, &mut player, &spots);
        }
        if s.rules::<RodaDaSorte>().is_some() {
            let spots: Vec<serde_json::Value> = Section::ALL.iter().map(|c| serde_json::to_value(c).unwrap_or_default()).collect();
            dice_bet(&mut s, &mut player, &spots);
        }
        // Every place of the fish-prawn-crab table's cloth.
        if let Some(spots) = s.rules::<FishPrawnCrab>().map(|g| g.0.cloth().iter().map(|c| serde_json::to_value(c).unwrap_or_default()).collect::<Vec<_>>()) {
            dice_bet(&mut s, &mut player, &spots);
        }
        // Every spot the craps table offers: a series rolls until each is decided.
        if let Some(spots) = s.rules::<Craps>().map(|g| g.0.spots.iter().map(|c| serde_json::to_value(c).unwrap_or_default()).collect::<Vec<_>>()) {
            dice_bet(&mut s, &mut player, &spots);
        }
        if s.rules::<Fantan>().is_some() {
            // Fan and kuoc: their step (20 cents) divides the table's
            // chips at every denomination.
            let spots: Vec<serde_json::Value> = FantanSpot::all()
                .into_iter()
                .filter(|c| matches!(c, FantanSpot::Fan(_) | FantanSpot::Kuoc(..)))
                .map(|c| serde_json::to_value(c).unwrap_or_default())
                .collect();
            dice_bet(&mut s, &mut player, &spots);
        }
        if s.rules::<Baccarat>().is_some() {
            baccarat_bet(&mut s, &mut player);
        }
        let last = s.history().last().map(|h| h.round);
        if !s.play() {
            return Err(anyhow!("play refused: {:?}", s.message_text()));
        }
        // A round decided at its deal (a blackjack against no ace) is
        // already settled when play returns.
        let open = s.open_round_id();
        let id = open.or_else(|| s.history().last().map(|h| h.round).filter(|r| Some(*r) != last));
        say(&format!("begun {} {}", id.ok_or_else(|| anyhow!("no round after play"))?, s.game().id()))?;
        if open.is_some() {
            finish(&mut s, &mut player)?;
        } else {
            settled(&s)?;
        }
        if s.machine().play_block().is_some() {
            s.attendant_clear(); // a hand-pay
        }
        if i % 9 == 8 {
            s.cash_out();
            if let Some(v) = s.take_last_ticket() {
                let value = s.machine().state().tickets.get(&v).map_or(0, |t| t.value);
                say(&format!("ticket {v} {value}"))?;
                s.insert_ticket(&v);
                say(&format!("ticket_in {v}"))?;
            }
        }
    }
    Ok(())
}
