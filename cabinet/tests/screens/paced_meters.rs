//! Issue 75, defect 5: while a bingo screen still paces out a settled
//! round, the meters bar holds back the win and the credit it brought
//! (`pacing::PaceOut`): bingo 90's credit showed a 0.02 EUR win twelve
//! seconds after JOGAR, before any card named it. Rounds of bingo 90 are
//! played until one wins; every frame shot while its balls fall shows
//! either the credit less the bet with PRÉMIO at nothing, or the round's
//! own win in PRÉMIO with the credit it brought, never the credit alone.

use std::time::{Duration, Instant};

use super::every_screen::meter;
use super::rig::{self, Rig, layout, stop};
use super::{menu_position, one_at_a_time};

#[test]
fn bingo_holds_a_win_and_its_credit_back_until_a_card_names_it() {
    let _one = one_at_a_time();
    let rig = Rig::new();
    let cab = rig.launch_sized(1920, 1080, &[]);
    rig.key("4");
    rig.wait_for("a note", |i| i.state().credit == 5_000);
    for _ in 0..menu_position("bingo-90") {
        rig.key("Right");
    }
    std::thread::sleep(Duration::from_millis(800));
    // Frames shot after the core had credited a win the screen had not yet
    // named (held back), and frames that named it.
    let (mut held, mut named) = (0, 0);
    for round in 1..=30 {
        let idle = rig.wait_for("no round open", |i| i.state().open_round.is_none());
        let (credit_before, last) = (idle.state().credit, idle.state().last_round);
        rig.touch_button(layout::DeckButton::Play);
        let deadline = Instant::now() + Duration::from_secs(60);
        let (mut settled_credit, mut bet, mut named_here, mut last_count) = (None, None, false, None);
        loop {
            let shot = rig.shot();
            let text = rig::text_beside(&shot);
            let i = meters::inspect::Inspection::open(&rig.db()).unwrap();
            let closed = i.state().open_round.is_none() && i.state().last_round > last;
            if !closed && text.lines().any(|l| l.trim().starts_with("BOLA EXTRA")) {
                // An extra ball offered: stop (F2), the round settles.
                rig.key("F2");
            }
            let bet = *bet.get_or_insert_with(|| meter(&text, "APOSTA").unwrap_or_else(|| panic!("{}: no bet shown:\n{text}", shot.display())));
            let (credit, prize) = (meter(&text, "CRÉDITO").unwrap(), meter(&text, "PRÉMIO").unwrap());
            let staked = credit_before - bet;
            if closed {
                settled_credit = Some(i.state().credit);
            }
            // A card names its prize ("CARTÃO 2: LINHA 3×") once its
            // pattern is complete on the balls shown.
            let names_a_prize = text.lines().any(|l| l.trim().starts_with("CARTÃO ") && l.contains('×'));
            match settled_credit {
                None => assert_eq!(credit, staked, "round {round}, {}: the credit before the round settled", shot.display()),
                Some(after) => {
                    let win = after - staked;
                    assert!(credit == staked || credit == after, "round {round}, {}: credit {credit} is neither {staked} nor {after}", shot.display());
                    assert!(prize <= win, "round {round}, {}: PRÉMIO {prize} over the round's win {win}", shot.display());
                    if win > 0 && credit == after {
                        assert!(names_a_prize, "round {round}, {}: the credit shows a win of {win} no card has named:\n{text}", shot.display());
                    }
                    if prize > 0 {
                        assert!(names_a_prize && credit == after, "round {round}, {}: PRÉMIO {prize} before its card and its credit:\n{text}", shot.display());
                    }
                    held += usize::from(win > 0 && credit == staked);
                    if win > 0 && prize == win {
                        named += 1;
                        named_here = true;
                    }
                }
            }
            // The round is over on screen: its win named, or a loss whose
            // balls have stopped falling (the count the same as a frame
            // before, the round settled).
            let count = text.lines().find(|l| l.trim().starts_with("BOLAS ")).map(str::to_owned);
            let still = count.is_some() && count == last_count;
            last_count = count;
            if settled_credit.is_some_and(|after| named_here || (after == staked && still)) {
                break;
            }
            assert!(Instant::now() < deadline, "round {round} never came to rest on screen");
            std::thread::sleep(Duration::from_millis(700));
        }
        if held > 0 && named > 0 {
            break;
        }
    }
    stop(cab);
    assert!(held > 0 && named > 0, "no bingo 90 round in 30 won a prize the screen held back ({held}) and then named ({named})");
}
