//! One [`GameKind`](crate::kind::GameKind) per kind of game the cabinet
//! hosts: the rules from `game-core`, with the approved paytable.
/// The decision methods of a kind whose round is decided by its draw
/// alone (reels, roulette, the dice tables, baccarat): no decision can be
/// made or journaled, the round is decided at once, the screen shows the
/// outcome before it settles, and autoplay (M-32) may play it. Written
/// once, inside each such `impl GameKind`, for its round type.
macro_rules! decided_by_the_draw {
    ($round:ty) => {
        fn decide(&self, _round: &mut $round, decision: &NoDecision) -> Result<Decided<NoDecision>, Refusal> {
            match *decision {}
        }

        fn step_name(&self, step: &NoDecision) -> &'static str {
            match *step {}
        }

        fn apply(&self, _round: &mut $round, step: &NoDecision) {
            match *step {}
        }

        fn decided(&self, _round: &$round) -> bool {
            true
        }

        /// The outcome is shown (reels spin, the ball falls, dice roll,
        /// cards turn) before the round settles.
        fn animated(&self) -> bool {
            true
        }

        fn autoplay(&self) -> bool {
            true
        }
    };
}
pub(crate) use decided_by_the_draw;

pub mod baccarat;
pub mod banca_francesa;
pub mod bingo;
pub mod blackjack;
pub mod boule;
pub mod craps;
pub mod desafio_ao_casino;
pub mod draw_poker;
pub mod fantan;
pub mod fish_prawn_crab;
pub mod layout;
pub mod poquer_3_cartas;
pub mod reels;
pub mod roda_da_sorte;
pub mod roulette;
pub mod sic_bo;
pub mod stud_poker;

/// The option `delta` places from `current` in `options`, held at the ends;
/// `current` itself when it is not offered.
pub(crate) fn step<T: Copy + PartialEq>(options: &[T], current: T, delta: i32) -> T {
    match options.iter().position(|&o| o == current) {
        Some(i) => options[(i as i32 + delta).clamp(0, options.len() as i32 - 1) as usize],
        None => current,
    }
}

/// No decision: a kind whose round is decided by its draw alone (reels;
/// baccarat) uses this for its decisions and steps. It has no value, so no
/// decision can ever be sent or journaled for such a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum NoDecision {}

/// Cards as the history writes them.
pub(crate) fn cards(hand: &[game_core::cards::Card]) -> String {
    hand.iter().map(|c| c.pretty()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::step;

    #[test]
    fn a_bet_button_moves_one_option_and_holds_at_the_ends() {
        let options = [1u64, 2, 5, 10];
        assert_eq!(step(&options, 2, 1), 5);
        assert_eq!(step(&options, 2, -1), 1);
        assert_eq!(step(&options, 1, -1), 1);
        assert_eq!(step(&options, 10, 3), 10);
        assert_eq!(step(&options, 3, 1), 3, "a value not offered stays as it is");
    }
}
