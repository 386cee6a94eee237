//! The blackjack table (issue 32), drawn by Bevy: the dealer's hand, its
//! hole card face down until the dealer's turn; the player's hands side
//! by side, the active one marked; each hand's total and result; the
//! decisions that are legal now, as buttons (touch, or F1 hit, F2 stand,
//! F3 double, F4 split, F5 surrender, F6 insurance or even money, F7 no
//! insurance), a double, a split or insurance only where the credit meter
//! covers its stake. Everything shown is the host's round: the shoe was
//! committed at the deal, each decision is a committed step. Help and
//! recall stay egui.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::blackjack::{Action, Round};
use game_host::kind::GameKind;
use game_host::kinds::blackjack::{Blackjack, BlackjackShoe};
use game_host::round::{Opening, Phase};
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::paint_hand;
use crate::screens::table::{self, CARD, CardLook};
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct BlackjackScreenPlugin;

impl Plugin for BlackjackScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<BlackjackTable>()
            .add_systems(Update, decision_keys.run_if(in_state(Mode::Playing)))
            .add_systems(Update, (build_table, (show_table, touch_buttons).run_if(blackjack_selected)).chain());
    }
}

fn blackjack_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<Blackjack>().is_some())
}

/// The buttons, in the order of their keys F1–F7.
const BUTTONS: [Action; 7] = [Action::Hit, Action::Stand, Action::Double, Action::Split, Action::Surrender, Action::Insurance, Action::NoInsurance];
const KEYS: [KeyCode; 7] = [KeyCode::F1, KeyCode::F2, KeyCode::F3, KeyCode::F4, KeyCode::F5, KeyCode::F6, KeyCode::F7];
/// The most hands and cards a hand the table lays out.
const HANDS: usize = 8;
const CARDS: usize = 10;
const DEALER_Y: f32 = 235.0;
const PLAYER_Y: f32 = 505.0;
const LABEL_Y: f32 = 650.0;
/// The felt (above the decision buttons) and the first printed line of
/// its rules, between the dealer's cards and the player's.
const FELT: crate::layout::Area = crate::layout::Area::new(60.0, 102.0, 1800.0, 582.0);
const PRINTED_Y: f32 = 352.0;

/// The rules a blackjack layout prints on its felt: what a blackjack pays
/// (BJ 45), how the dealer draws (BJ 22), insurance (BJ 50).
fn printed_rules(rules: &game_core::blackjack::Rules, lang: Lang) -> Vec<String> {
    let pays = rules.blackjack_pays;
    let mut lines = vec![format!("{} {} {} {}", lang.t("BLACKJACK PAGA"), pays.win, lang.t("PARA"), pays.per)];
    let dealer = lang.t(if rules.dealer_hits_soft_17 { "A BANCA PEDE CARTA NO 17 BRANDO" } else { "A BANCA FICA EM TODOS OS 17" });
    let insurance = if rules.insurance { format!(" · {}", lang.t("SEGURO PAGA 2 PARA 1")) } else { String::new() };
    lines.push(format!("{dealer}{insurance}"));
    lines
}

/// The decisions offered now whose extra stake the credit meter covers:
/// what the screen shows and takes (the core refuses the rest anyway).
fn offered(s: &Session) -> Vec<Action> {
    let Some(r) = s.round::<Blackjack>().filter(|r| r.phase == Phase::Decisions) else { return Vec::new() };
    let credit = s.machine().credit();
    r.state.legal().into_iter().filter(|&a| r.state.extra_stake(a).saturating_mul(r.denom) <= credit).collect()
}

/// The decision a button or key stands for now: F6 is insurance, or even
/// money for a blackjack.
fn meaning(offered: &[Action], k: usize) -> Option<Action> {
    let a = BUTTONS[k];
    let a = if a == Action::Insurance && offered.contains(&Action::EvenMoney) { Action::EvenMoney } else { a };
    offered.contains(&a).then_some(a)
}

fn decision_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    if s.rules::<Blackjack>().is_none() {
        return;
    }
    let now = offered(&s);
    for (k, key) in KEYS.iter().enumerate() {
        if keys.just_pressed(*key)
            && let Some(a) = meaning(&now, k)
        {
            s.decide::<Blackjack>(a);
            return;
        }
    }
}

/// A decision's button: its name alone (issue 45: a player reads no key
/// names; the keys F1–F7 still work on a button panel).
fn label(s: &Session, a: Action) -> String {
    a.name(s.lang() == game_host::session::Lang::Pt).to_uppercase()
}

/// The table on screen: built for the game selected (and the player's
/// language), taken down for any other.
#[derive(Resource, Default)]
struct BlackjackTable {
    game: Option<String>,
}

#[derive(Component)]
struct BlackjackRoot;
/// A card: the dealer's (hand None) or a player's hand's, and its place.
#[derive(Component)]
struct BlackjackCard(Option<usize>, usize);
/// The mark under the hand in play.
#[derive(Component)]
struct ActiveMark;
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum BlackjackText {
    Dealer,
    Hand(usize),
    Stakes,
    Outcome,
    Button(usize),
}
#[derive(Component, Clone, Copy, PartialEq, Eq)]
struct BlackjackButton(usize);

/// Where each card of a round stands, and its size: the dealer's row, and
/// the player's hands side by side, each fanned.
fn hand_centre(hands: usize, i: usize) -> f32 {
    let spacing = (1700.0 / hands.max(1) as f32).min(560.0);
    960.0 + (i as f32 - (hands as f32 - 1.0) / 2.0) * spacing
}

fn card_size(hands: usize) -> Vec2 {
    if hands <= 2 { CARD * 0.85 } else { CARD * 0.6 }
}

fn card_place(hands: usize, hand: Option<usize>, i: usize, n: usize) -> (f32, f32) {
    match hand {
        None => table::row(n.max(2), CARD * 0.85, 14.0, 960.0, DEALER_Y)[i.min(n.max(2) - 1)],
        Some(h) => {
            // Each card shows over half of the one before it, its rank and
            // suit whole (issue 75: the first card lay almost hidden under
            // the second); a long hand among many closes up to its room.
            let w = card_size(hands).x;
            let room = (1700.0 / hands.max(1) as f32).min(560.0) - 16.0;
            let fan = if n > 1 { (w * 0.55).min((room - w) / (n as f32 - 1.0)).max(w * 0.3) } else { 0.0 };
            let x = hand_centre(hands, h) - (n as f32 - 1.0) * fan / 2.0 + i as f32 * fan;
            (x, PLAYER_Y + i as f32 * 6.0)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn build_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<BlackjackTable>,
    mut roots: Query<(Entity, &mut Visibility), With<BlackjackRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<Blackjack>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.game, &mut roots) else { return };
    let Some(rules) = s.rules::<Blackjack>().map(|b| b.0.rules) else { return };
    let printed = printed_rules(&rules, s.lang());
    commands.spawn((BlackjackRoot, Transform::default(), visibility)).with_children(|root| {
        // The felt, rimmed, with the table's rules printed across it between
        // the dealer's cards and the player's, as a casino's layout prints
        // them (issue 45, defect 11: the cards floated on the backdrop).
        let (fx, fy) = FELT.centre();
        root.spawn((Sprite::from_color(table::GOLD, Vec2::new(FELT.w + 8.0, FELT.h + 8.0)), Transform::from_translation(stage::at(fx, fy, 0.4))));
        root.spawn((Sprite::from_color(Color::srgb(0.03, 0.3, 0.16), Vec2::new(FELT.w, FELT.h)), Transform::from_translation(stage::at(fx, fy, 0.5))));
        for (k, line) in printed.into_iter().enumerate() {
            root.spawn((
                stage::text(&fonts, line, 20.0, Color::srgba(0.96, 0.82, 0.29, 0.85)),
                Transform::from_translation(stage::at(960.0, PRINTED_Y + k as f32 * 32.0, 1.0)),
            ));
        }
        root.spawn((
            ActiveMark,
            Sprite::from_color(table::GOLD, Vec2::new(300.0, 8.0)),
            Transform::from_translation(stage::at(960.0, LABEL_Y - 22.0, 2.0)),
            Visibility::Hidden,
        ));
        for i in 0..CARDS {
            root.spawn((BlackjackCard(None, i), Sprite::default(), Transform::default(), Visibility::Hidden));
            for h in 0..HANDS {
                root.spawn((BlackjackCard(Some(h), i), Sprite::default(), Transform::default(), Visibility::Hidden));
            }
        }
        let line =
            |t: BlackjackText, x: f32, y: f32, size: f32| (t, stage::text(&fonts, "", size, Color::WHITE), Transform::from_translation(stage::at(x, y, 3.0)));
        root.spawn(line(BlackjackText::Dealer, 960.0, DEALER_Y - CARD.y * 0.85 / 2.0 - 20.0, 24.0));
        for h in 0..HANDS {
            root.spawn(line(BlackjackText::Hand(h), 960.0, LABEL_Y, 22.0));
        }
        root.spawn(line(BlackjackText::Stakes, 960.0, 800.0, 20.0));
        root.spawn(line(BlackjackText::Outcome, 960.0, 736.0, 28.0));
        for (k, action) in BUTTONS.iter().enumerate() {
            let a = crate::layout::decision_button(k);
            let (cx, cy) = a.centre();
            let fill = match action {
                Action::Hit => Color::srgb(0.12, 0.55, 0.23),
                Action::Stand => Color::srgb(0.7, 0.08, 0.16),
                Action::Double | Action::Split => Color::srgb(0.05, 0.2, 0.55),
                _ => Color::srgb(0.36, 0.16, 0.53),
            };
            root.spawn((
                BlackjackButton(k),
                Sprite::from_color(fill, Vec2::new(a.w, a.h)),
                Transform::from_translation(stage::at(cx, cy, 2.5)),
                Visibility::Hidden,
            ))
            .with_children(|button| {
                button.spawn((BlackjackText::Button(k), stage::text(&fonts, "", 22.0, Color::WHITE), Transform::from_xyz(0.0, 0.0, 0.5)));
            });
        }
    });
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_table(
    session: Res<SessionRes>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut cards: Query<(&BlackjackCard, &mut Sprite, &mut Transform, &mut Visibility), (Without<BlackjackButton>, Without<ActiveMark>)>,
    mut mark: Query<(&mut Transform, &mut Visibility), (With<ActiveMark>, Without<BlackjackCard>, Without<BlackjackButton>)>,
    mut buttons: Query<(&BlackjackButton, &mut Visibility), (Without<BlackjackCard>, Without<ActiveMark>)>,
    mut texts: Query<(&BlackjackText, &mut Text2d, &mut Transform), (Without<BlackjackCard>, Without<ActiveMark>)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let round = s.round::<Blackjack>();
    let state: Option<&Round> = round.map(|r| &r.state);
    let hands = state.map_or(0, |r| r.hands.len().min(HANDS));
    for (card, mut sprite, mut transform, mut vis) in &mut cards {
        let cards_of: &[game_core::cards::Card] = match (state, card.0) {
            (None, _) => &[],
            (Some(r), None) => &r.dealer,
            (Some(r), Some(h)) => r.hands.get(h).filter(|_| h < HANDS).map_or(&[], |h| &h.cards[..]),
        };
        let i = card.1;
        let Some(&face) = cards_of.get(i) else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        // The hole card stays face down until the dealer's turn (BJ 20).
        let face_up = card.0.is_some() || i != 1 || state.is_some_and(|r| r.hole_shown);
        let n = cards_of.len().min(CARDS);
        let size = if card.0.is_none() { CARD * 0.85 } else { card_size(hands) };
        let look = CardLook { face: Some(face), turn: if face_up { 1.0 } else { 0.0 }, centre: card_place(hands, card.0, i.min(CARDS - 1), n), size };
        table::show_card(&mut sprite, &mut transform, &look, 3.0 + i as f32 * 0.01, &mut art, &mut images);
    }
    let deciding = round.is_some_and(|r| r.phase == Phase::Decisions);
    let now = offered(&s);
    if let Ok((mut t, mut v)) = mark.single_mut() {
        let show = deciding && state.is_some_and(|r| r.phase == game_core::blackjack::Phase::Player);
        v.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
        if let Some(r) = state {
            t.translation = stage::at(hand_centre(hands, r.active.min(HANDS - 1)), LABEL_Y - 24.0, 2.0);
        }
    }
    for (b, mut v) in &mut buttons {
        v.set_if_neq(if meaning(&now, b.0).is_some() { Visibility::Inherited } else { Visibility::Hidden });
    }
    let settlement = state.and_then(|r| r.settlement());
    for (kind, mut text, mut transform) in &mut texts {
        let want = match *kind {
            BlackjackText::Dealer => match state {
                Some(r) if r.hole_shown => format!("{} {}", s.t("BANCA|dealer"), r.dealer_total().0),
                Some(r) => format!("{} {}", s.t("BANCA|dealer"), r.up_card().map_or(0, game_core::blackjack::hand::value)),
                None => s.t("BANCA|dealer").to_owned(),
            },
            BlackjackText::Hand(h) => match state.and_then(|r| r.hands.get(h)).filter(|_| h < hands) {
                Some(hand) => {
                    transform.translation.x = stage::at(hand_centre(hands, h), LABEL_Y, 3.0).x;
                    let result = settlement
                        .as_ref()
                        .and_then(|st| st.hands.get(h))
                        .map_or(String::new(), |x| format!(" — {}", x.outcome.name(s.lang() == game_host::session::Lang::Pt).to_uppercase()));
                    let doubled = if hand.doubled { s.t(" ×2") } else { "" };
                    format!("{}{doubled}{result}", if hand.blackjack() { "BLACKJACK".to_owned() } else { hand.total().to_string() })
                }
                None if h == 0 && state.is_none() => s.t("Prima JOGAR para dar cartas").to_owned(),
                None => String::new(),
            },
            BlackjackText::Stakes => match round {
                Some(r) => {
                    let insurance = r.state.insurance.map_or(String::new(), |i| format!(" · {} {}", s.t("seguro"), s.show(i * r.denom)));
                    format!("{} {}{insurance}", s.t("Em jogo:"), s.show(r.state.staked() * r.denom))
                }
                None => String::new(),
            },
            BlackjackText::Outcome => match (round, &settlement) {
                (Some(r), Some(st)) if r.phase == Phase::Ended => {
                    let bonus = if st.bonus > 0 { format!(" · {} {}", s.t("BÓNUS 6-7-8/7-7-7"), s.show(st.bonus * r.denom)) } else { String::new() };
                    format!("{} {}{bonus}", s.t("PAGO"), s.show(st.returned() * r.denom))
                }
                _ => String::new(),
            },
            BlackjackText::Button(k) => meaning(&now, k).map_or(String::new(), |a| label(&s, a)),
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// A touch on a button that is offered now.
fn touch_buttons(presses: Res<Presses>, session: Res<SessionRes>, mode: Res<State<Mode>>) {
    let points = presses.on_game().to_vec();
    if points.is_empty() || !matches!(mode.get(), Mode::Idle | Mode::Playing) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    for p in points {
        let now = offered(&s);
        let Some(a) = (0..BUTTONS.len()).find(|&k| crate::layout::decision_button(k).contains(p.x, p.y)).and_then(|k| meaning(&now, k)) else { continue };
        s.decide::<Blackjack>(a);
        info!("blackjack: {a:?} touched");
    }
}

/// A recalled blackjack round: every card and decision, replayed from the
/// committed shoe and steps (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Blackjack::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<game_host::kinds::blackjack::BlackjackBet, BlackjackShoe>>(first.step.data.clone()) else { return false };
    // The recalled round's own table, whatever game is selected now.
    let Some(g) = s.games().iter().find_map(|g| g.rules::<Blackjack>().filter(|b| b.0.id == rec.game)) else { return false };
    let decisions: Vec<Action> = r.steps[1..]
        .iter()
        .filter_map(|st| serde_json::from_value::<game_host::kinds::blackjack::BlackjackStep>(st.step.data.clone()).ok())
        .map(|st| st.action)
        .collect();
    let Ok(round) = Round::replay(g.0.rules, rec.bet.bet, rec.deal.cards, &decisions) else { return false };
    ui.label(s.t("Banca"));
    paint_hand(ui, &round.dealer.iter().map(|&c| Some(c)).collect::<Vec<_>>(), &[]);
    for (i, h) in round.hands.iter().enumerate() {
        ui.label(format!("{} {} — {}", s.t("Mão"), i + 1, h.total()));
        paint_hand(ui, &h.cards.iter().map(|&c| Some(c)).collect::<Vec<_>>(), &[]);
    }
    let said: Vec<&str> = decisions.iter().map(|a| a.name(s.lang() == game_host::session::Lang::Pt)).collect();
    ui.label(format!("{}: {}", s.t("Decisões"), said.join(", ")));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 75, defect 6: the player's first card lay almost hidden
    /// under the second. In every hand of up to four (BJ 23's most splits)
    /// each card of a hand of up to six shows over half of the one before
    /// it, and the hand stays in its own room, clear of its neighbours.
    #[test]
    fn each_card_shows_over_half_of_the_one_before_and_hands_stay_apart() {
        for hands in 1..=4 {
            let w = card_size(hands).x;
            for n in 2..=6 {
                let mut spans = Vec::new();
                for h in 0..hands {
                    let xs: Vec<f32> = (0..n).map(|i| card_place(hands, Some(h), i, n).0).collect();
                    for pair in xs.windows(2) {
                        assert!(pair[1] - pair[0] >= w * 0.5, "{hands} hands, {n} cards: a card shows {:.0} of {w:.0}", pair[1] - pair[0]);
                    }
                    spans.push((xs[0] - w / 2.0, xs[n - 1] + w / 2.0));
                }
                for pair in spans.windows(2) {
                    assert!(pair[0].1 < pair[1].0, "{hands} hands, {n} cards: hands overlap: {spans:?}");
                }
                assert!(spans[0].0 >= 0.0 && spans[hands - 1].1 <= crate::layout::WIDTH, "{hands} hands, {n} cards: off the screen: {spans:?}");
            }
        }
    }
}
