//! The host's progressives for every kind of game (issue 11): a standalone
//! pool on draw poker, won by the final hand the round committed (M-18),
//! paid with the round's settlement (M-21), headless on a real SQLite file.

use crate::test_config;

use game_core::poker::{Category, evaluate};
use game_host::boot::{BootOptions, boot};
use game_host::kinds::draw_poker::DrawRecord;
use meters::RecallOutcome;

/// The embedded configuration with a pool on Jacks or Better whose level
/// is won by two pair (common enough to hit in a short run).
fn config(dir: &std::path::Path) -> std::path::PathBuf {
    test_config::config(
        dir,
        "        (
            pool: (id: \"poker\", games: [\"jacks-or-better-9-6\"], min_wager: 1,
                   levels: [(name: \"Póquer\", start_value: 2000, reset_value: 1500, increment_ppm: 20000,
                             reserve_ppm: 0, ceiling: None, mystery: false)]),
            triggers: [(0, PokerHand(pattern: TwoPair, max_coins_only: false))],
        ),
",
    )
}

#[test]
fn a_draw_poker_hand_wins_its_progressive_level_with_the_round() {
    let dir = tempfile::tempdir().unwrap();
    let options = BootOptions { config: config(dir.path()), db: dir.path().join("egm.sqlite"), lab_seed: Some(5), demo: false };
    let mut s = boot(&options).unwrap();
    let jacks = s.games().iter().position(|g| g.id() == "jacks-or-better-9-6").unwrap();
    s.choose_game(jacks);
    s.insert_note(5_000);
    const ROUNDS: u64 = 120;
    for _ in 0..ROUNDS {
        assert!(s.play(), "deal refused: {:?}", s.message_text());
        s.play(); // draw, holding nothing
        if s.in_round() {
            s.collect(); // a win offered the double-up: take it
        }
        assert!(!s.in_round());
    }
    let rounds = s.machine().recall(ROUNDS).unwrap();
    assert_eq!(rounds.len() as u64, ROUNDS);
    let (mut hits, mut awarded) = (0u64, 0u64);
    for r in &rounds {
        let draw: DrawRecord = serde_json::from_value(r.steps[1].step.data.clone()).unwrap();
        // An independent reading of the final hand: the plain evaluator.
        let two_pair = evaluate(&draw.hand).category() == Category::TwoPair;
        let RecallOutcome::Settled { win, components, .. } = &r.outcome else { panic!("round {} not settled", r.round) };
        let award: u64 = components.iter().filter(|c| c.label.starts_with("progressive poker")).map(|c| c.amount).sum();
        assert_eq!(award > 0, two_pair, "round {}: {:?} → {:?}", r.round, draw.hand, components);
        assert_eq!(*win, draw.win * r.denom + award, "round {}", r.round);
        hits += u64::from(two_pair);
        awarded += award;
    }
    assert!(hits >= 2, "the run must exercise the award ({hits} hits)");
    // The pool's own meters agree with the rounds, award for award.
    let level = &s.machine().pools()["poker"].levels[0];
    assert_eq!((level.hits, level.won), (hits, awarded));
    // Every wager contributed 2% (5 coins of 1 cent each round).
    assert_eq!(level.contributed_micro, u128::from(ROUNDS) * 5 * 20_000);
}

/// Póquer sem descarte's jackpot side bet (PSD 35–42) on the embedded
/// configuration: the side bet is staked beside the ante, feeds the
/// side-bet pool alone (20% to the level, 5% to its reserve), and a flush,
/// full house or four of a kind wins its fixed sum with the round,
/// whatever the dealer holds (PSD 40); on a fold too (`pays_on_fold`).
#[test]
fn the_stud_jackpot_side_bet_feeds_its_pool_and_pays_its_fixed_sums() {
    use game_core::stud_poker::Decision;
    use game_host::command::Command;
    use game_host::kind::BetControl;
    use game_host::kinds::stud_poker::StudPoker;
    let dir = tempfile::tempdir().unwrap();
    let options = BootOptions { config: test_config::config(dir.path(), ""), db: dir.path().join("egm.sqlite"), lab_seed: Some(8), demo: false };
    let mut s = boot(&options).unwrap();
    let stud = s.games().iter().position(|g| g.id() == "poquer-sem-descarte").unwrap();
    s.command(Command::SelectGame { index: stud });
    s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
    assert!(s.bet_text().contains("jackpot 1"), "{}", s.bet_text());
    assert!(s.command(Command::InsertNote { cents: 5_000 }));
    let denom = s.denom();
    let start = s.machine().pools()["stud-jackpot"].levels[0].clone();
    const ROUNDS: u64 = 400;
    for i in 0..ROUNDS {
        assert!(s.command(Command::Play), "{:?}", s.message_text());
        assert!(s.decide::<StudPoker>(if i % 4 == 0 { Decision::Fold } else { Decision::Raise }));
        assert!(!s.in_round());
    }
    let level = &s.machine().pools()["stud-jackpot"].levels[0];
    // Every round's side bet of 1 credit fed the pool: 25% of it, to the millionth.
    assert_eq!(level.contributed_micro - start.contributed_micro, u128::from(ROUNDS * denom) * 250_000);
    assert!(level.balanced());
    // The reel pool took nothing from stud rounds.
    assert_eq!(s.machine().pools()["sevens"].levels[0].contributed_micro, 0);
    let rounds = s.machine().recall(ROUNDS).unwrap();
    let mut fixed_wins = 0;
    for r in &rounds {
        let player: [game_core::cards::Card; 5] = serde_json::from_value(r.steps[0].step.data["deal"]["player"].clone()).unwrap();
        let raised = r.steps.iter().any(|st| st.step.name == "raise");
        let ante = r.steps[0].step.data["bet"]["ante"].as_u64().unwrap();
        assert_eq!(r.stake, (ante + 1 + if raised { 2 * ante } else { 0 }) * r.denom, "round {}: ante, side bet and raise", r.round);
        // An independent reading of the side bet's fixed sums (the paytable's 150/250/500).
        let fixed = match evaluate(&player).category() {
            Category::Flush => 150,
            Category::FullHouse => 250,
            Category::FourOfAKind => 500,
            _ => 0,
        };
        let RecallOutcome::Settled { components, .. } = &r.outcome else { panic!("round {} not settled", r.round) };
        let paid: u64 = components.iter().filter(|c| c.label.starts_with("jackpot side bet")).map(|c| c.amount).sum();
        assert_eq!(paid, fixed * r.denom, "round {}: {player:?}", r.round);
        fixed_wins += u64::from(fixed > 0);
    }
    assert!(fixed_wins >= 1, "the run must exercise a fixed sum ({fixed_wins})");
}

/// PSD 41: a side-bet pool that starts under 10,000 times the side bet at
/// the largest denomination is refused at boot, with the reason.
#[test]
fn a_side_bet_pool_under_ten_thousand_side_bets_is_refused_at_boot() {
    let dir = tempfile::tempdir().unwrap();
    let text = test_config::text(dir.path()).replace("start_value: 2000000, reset_value: 2000000", "start_value: 1999999, reset_value: 1999999");
    assert!(text.contains("1999999"), "the embedded side-bet pool was changed");
    let options = BootOptions { config: test_config::write(dir.path(), &text), db: dir.path().join("egm.sqlite"), lab_seed: Some(1), demo: false };
    let e = boot(&options).err().unwrap();
    assert!(e.contains("stud-jackpot") && e.contains("PSD 41") && e.contains("2000000 cents"), "{e}");
    assert!(!options.db.exists(), "a refused configuration never reaches critical memory");
}

/// Issue 69: every contribution to a linked pool is a round committed to
/// its controller. A linked pool that names a game whose rounds cannot be
/// committed (draw poker), or a game that feeds two linked pools (a round
/// is committed to one controller), is refused by name at boot, before
/// critical memory or any controller is reached.
#[test]
fn a_linked_pool_takes_only_games_whose_rounds_are_committed_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = test_config::text(dir.path());
    let end = text.rfind(')').unwrap();
    let linked = |pools: &[(&str, &str)]| {
        let items: Vec<String> = pools
            .iter()
            .map(|(pool, game)| {
                format!("(controller: \"egm://A@127.0.0.1:9?sslrootcert=ca.crt&sslcert=a.crt&sslkey=a.key\", pool: {pool:?}, games: [{game:?}], min_wager: 1)")
            })
            .collect();
        test_config::write(dir.path(), &format!("{}    linked_progressives: [{}],\n)\n", &text[..end], items.join(", ")))
    };
    let db = dir.path().join("egm.sqlite");
    let refused = |config| boot(&BootOptions { config, db: db.clone(), lab_seed: Some(1), demo: false }).err().expect("booted");
    let e = refused(linked(&[("poker-link", "jacks-or-better-9-6")]));
    assert!(e.contains("linked pool poker-link names game jacks-or-better-9-6, which is not a reel game"), "{e}");
    let e = refused(linked(&[("first", "classic-sevens"), ("second", "classic-sevens")]));
    assert!(e.contains("game classic-sevens feeds the linked pools first and second"), "{e}");
    assert!(!db.exists(), "critical memory was made for a refused configuration");
}

/// G-50: every level shown with the game says whether the bet standing can
/// win it, without the player betting the most to find out: the Grande
/// asks the largest bet per line, a draw-poker level the most coins, the
/// stud jackpot its side bet; a mystery level is won at any bet its pool
/// takes. The mark follows each bet change both ways, in both languages.
#[test]
fn each_level_shown_says_whether_the_bet_standing_can_win_it() {
    use game_host::command::Command;
    use game_host::kind::BetControl;
    use game_host::session::{Lang, Session};
    let dir = tempfile::tempdir().unwrap();
    let royal = "        (
            pool: (id: \"royal\", games: [\"jacks-or-better-9-6\"], min_wager: 1,
                   levels: [(name: \"Real\", start_value: 2000, reset_value: 2000, increment_ppm: 10000,
                             reserve_ppm: 0, ceiling: None, mystery: false)]),
            triggers: [(0, PokerHand(pattern: RoyalFlush, max_coins_only: true))],
        ),
";
    let options = BootOptions { config: test_config::config(dir.path(), royal), db: dir.path().join("egm.sqlite"), lab_seed: Some(5), demo: false };
    let mut s = boot(&options).unwrap();
    let reach = |s: &Session| s.progressives_shown().iter().map(|p| (p.name.clone(), p.eligible)).collect::<Vec<_>>();
    let named = |pairs: &[(&str, bool)]| pairs.iter().map(|(n, e)| ((*n).to_owned(), *e)).collect::<Vec<_>>();
    let mark = " (não elegível)";
    let choose = |s: &mut Session, id: &str| {
        let i = s.games().iter().position(|g| g.id() == id).unwrap();
        s.choose_game(i);
    };

    choose(&mut s, "classic-sevens");
    assert_eq!(reach(&s), named(&[("Grande", false), ("Mistério", true)]), "the opening bet is the smallest");
    let lines = s.progressive_lines();
    assert!(lines[0].starts_with("Grande ") && lines[0].ends_with(mark), "{lines:?}");
    assert!(!lines[1].contains(mark), "{lines:?}");
    s.command(Command::MaxBet);
    assert_eq!(reach(&s), named(&[("Grande", true), ("Mistério", true)]), "at the largest bet per line");
    assert!(s.progressive_lines().iter().all(|l| !l.contains(mark)), "{:?}", s.progressive_lines());
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: -1 });
    assert_eq!(reach(&s), named(&[("Grande", false), ("Mistério", true)]), "one step down");
    s.command(Command::Language { lang: Lang::En });
    assert!(s.progressive_lines()[0].ends_with(" (not eligible)"), "{:?}", s.progressive_lines());
    s.command(Command::Language { lang: Lang::Pt });

    choose(&mut s, "jacks-or-better-9-6");
    assert_eq!(reach(&s), named(&[("Real", true)]), "the game opens at five coins");
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: -1 });
    assert_eq!(reach(&s), named(&[("Real", false)]), "four coins");
    s.command(Command::MaxBet);
    assert_eq!(reach(&s), named(&[("Real", true)]), "five coins again");

    choose(&mut s, "poquer-sem-descarte");
    assert_eq!(reach(&s), named(&[("Jackpot", false)]), "no side bet, no jackpot");
    s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
    assert_eq!(reach(&s), named(&[("Jackpot", true)]), "the side bet placed");
}
