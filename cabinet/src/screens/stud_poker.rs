//! The póquer sem descarte screen, drawn by Bevy (issue 29): what the raise
//! pays, the ante, the player's five cards and the dealer's up card
//! turning over, raise or fold (touch or F1/F2), then the dealer's hand
//! turned and the settlement; the jackpot side bet by touch (or J). The
//! dealer's hand was drawn and committed at the deal; the screen only turns
//! it over. Help and recall stay egui.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_egui::egui;
use game_core::poker::{Category, evaluate};
use game_core::stud_poker::{Decision, Outcome, StudDeal};
use game_host::command::Command;
use game_host::help::category_name;
use game_host::kind::BetControl;
use game_host::kind::GameKind;
use game_host::round::Opening;
use meters::RoundRecall;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::{paint_hand, turned};
use crate::screens::table::{self, CARD, CardLook};
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;
use game_host::kinds::stud_poker::StudPoker;
use game_host::round::Phase;
use game_host::session::Session;

pub struct StudPokerScreenPlugin;

impl Plugin for StudPokerScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<StudTable>()
            .add_systems(Update, decision_keys.run_if(in_state(Mode::Playing)))
            .add_systems(Update, (build_stud_table, (show_stud_table, touch_stud_buttons).run_if(stud_selected)).chain());
    }
}

fn stud_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<StudPoker>().is_some())
}

/// F1 raises ("vou"), F2 folds ("passo").
fn decision_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    if !s.in_round() {
        return;
    }
    if keys.just_pressed(KeyCode::F1) {
        s.decide::<StudPoker>(Decision::Raise);
    } else if keys.just_pressed(KeyCode::F2) {
        s.decide::<StudPoker>(Decision::Fold);
    }
}

fn outcome_text(s: &Session, o: Outcome) -> &'static str {
    match o {
        Outcome::Folded => s.t("Desistiu: o ante fica perdido"),
        Outcome::DealerDoesNotQualify => s.t("O croupier não se qualifica: ante pago 1:1, aposta devolvida"),
        Outcome::PlayerWins => s.t("GANHOU"),
        Outcome::DealerWins => s.t("O croupier ganha"),
        Outcome::Push => s.t("Empate: apostas devolvidas"),
    }
}

/// The stud table on screen: built for the game selected (and the
/// player's language), taken down for any other.
#[derive(Resource, Default)]
struct StudTable {
    game: Option<String>,
    /// The deal or the settlement on screen and when it began: the cards
    /// dealt, then the dealer's hidden ones, turn over (presentation only).
    turning: Option<(u64, bool)>,
    since: f32,
}

#[derive(Component)]
struct StudRoot;
/// A card: 0 the dealer's hand, 1 the player's; its place.
#[derive(Component)]
struct StudCard(usize, usize);
#[derive(Component)]
enum StudText {
    Dealer,
    Player,
    Stakes,
    Outcome,
    SideBet,
}
/// A touch button of the screen: the decisions, the side bet.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
enum StudButton {
    Raise,
    Fold,
    SideBet,
}

const PAYS: Area = Area::new(40.0, 106.0, 600.0, 370.0);
const HANDS_X: f32 = 1250.0;
const DEALER_Y: f32 = 250.0;
const PLAYER_Y: f32 = 510.0;

impl StudButton {
    fn area(self) -> Area {
        match self {
            StudButton::Raise => Area::new(HANDS_X - 380.0, 700.0, 360.0, 72.0),
            StudButton::Fold => Area::new(HANDS_X + 20.0, 700.0, 360.0, 72.0),
            StudButton::SideBet => Area::new(PAYS.x, PAYS.bottom() + 30.0, PAYS.w, 72.0),
        }
    }
}

fn hand_row(y: f32) -> Vec<(f32, f32)> {
    table::row(5, CARD, 24.0, HANDS_X, y)
}

#[allow(clippy::too_many_arguments)]
fn build_stud_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<StudTable>,
    mut roots: Query<(Entity, &mut Visibility), With<StudRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<StudPoker>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.game, &mut roots) else { return };
    *table = StudTable { game: table.game.take(), ..default() };
    let Some(g) = s.rules::<StudPoker>().map(|r| r.0.clone()) else { return };
    commands.spawn((StudRoot, Transform::default(), visibility)).with_children(|root| {
        let (px, py) = PAYS.centre();
        root.spawn((
            Sprite::from_color(Color::srgb(0.9, 0.75, 0.2), Vec2::new(PAYS.w + 8.0, PAYS.h + 8.0)),
            Transform::from_translation(stage::at(px, py, 1.0)),
        ));
        root.spawn((Sprite::from_color(Color::srgb(0.05, 0.09, 0.31), Vec2::new(PAYS.w, PAYS.h)), Transform::from_translation(stage::at(px, py, 1.1))));
        root.spawn((stage::text(&fonts, s.t("A APOSTA PAGA"), 22.0, Color::WHITE), Transform::from_translation(stage::at(px, PAYS.y + 24.0, 2.0))));
        for (k, (i, &pay)) in g.raise_pays.iter().enumerate().rev().enumerate() {
            let y = PAYS.y + 60.0 + k as f32 * 31.0;
            let name = category_name(s.lang(), Category::ALL[i]);
            root.spawn((stage::text(&fonts, name, 20.0, table::GOLD), Anchor::CENTER_LEFT, Transform::from_translation(stage::at(PAYS.x + 24.0, y, 2.0))));
            root.spawn((
                stage::text(&fonts, format!("{pay}:1"), 20.0, table::GOLD),
                Anchor::CENTER_RIGHT,
                Transform::from_translation(stage::at(PAYS.x + PAYS.w - 24.0, y, 2.0)),
            ));
        }
        for (hand, y) in [(0, DEALER_Y), (1, PLAYER_Y)] {
            for (i, &(x, y)) in hand_row(y).iter().enumerate() {
                root.spawn((StudCard(hand, i), Sprite::default(), Transform::from_translation(stage::at(x, y, 3.0))));
            }
        }
        let line = |t: StudText, y: f32, size: f32| (t, stage::text(&fonts, "", size, Color::WHITE), Transform::from_translation(stage::at(HANDS_X, y, 3.0)));
        root.spawn(line(StudText::Dealer, DEALER_Y - CARD.y / 2.0 - 18.0, 22.0));
        root.spawn(line(StudText::Player, PLAYER_Y + CARD.y / 2.0 + 22.0, 26.0));
        root.spawn(line(StudText::Stakes, PLAYER_Y + CARD.y / 2.0 + 54.0, 20.0));
        root.spawn(line(StudText::Outcome, 736.0, 28.0));
        for (b, fill) in [
            (StudButton::Raise, Color::srgb(0.12, 0.55, 0.23)),
            (StudButton::Fold, Color::srgb(0.7, 0.08, 0.16)),
            (StudButton::SideBet, Color::srgb(0.36, 0.16, 0.53)),
        ] {
            let a = b.area();
            let (cx, cy) = a.centre();
            root.spawn((b, Sprite::from_color(fill, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(cx, cy, 2.5)), Visibility::Hidden))
                .with_children(|button| {
                    button.spawn((StudText::SideBet, stage::text(&fonts, "", 24.0, Color::WHITE), Transform::from_xyz(0.0, 0.0, 0.5)));
                });
        }
    });
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_stud_table(
    session: Res<SessionRes>,
    time: Res<Time>,
    mut table: ResMut<StudTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut cards: Query<(&StudCard, &mut Sprite, &mut Transform), Without<StudButton>>,
    mut buttons: Query<(&StudButton, &mut Visibility, &Children)>,
    mut texts: Query<(&StudText, &mut Text2d)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let Some(g) = s.rules::<StudPoker>().map(|r| r.0.clone()) else { return };
    let lang = s.lang();
    let now = time.elapsed_secs();
    let round = s.round::<StudPoker>();
    if let Some(r) = round {
        let key = (r.id, r.phase == Phase::Ended);
        if table.turning != Some(key) {
            // A round this screen did not see dealt is shown as it stands.
            let seen = table.turning.is_some_and(|(id, _)| id == r.id) || r.phase != Phase::Ended;
            table.turning = Some(key);
            table.since = if seen && !r.resumed { now } else { now - 10.0 };
        }
    }
    let elapsed = now - table.since;
    let settled = round.and_then(|r| r.state.settled.map(|(_, st)| st)).filter(|_| round.is_some_and(|r| r.phase == Phase::Ended));
    let deciding = round.is_some_and(|r| r.phase == Phase::Decisions);
    for (card, mut sprite, mut transform) in &mut cards {
        let (hand, i) = (card.0, card.1);
        let (face, turn) = match (round, hand) {
            (None, _) => (None, 0.0),
            // The dealer: one card open at the deal, the four hidden ones
            // turned at the settlement.
            (Some(r), 0) if settled.is_some() => (Some(r.state.deal.dealer[i]), if i == 4 { 1.0 } else { turned(i, elapsed) }),
            (Some(r), 0) => (Some(r.state.deal.dealer[i]).filter(|_| i == 4), if i == 4 { turned(5, elapsed) } else { 0.0 }),
            (Some(r), _) => (Some(r.state.deal.player[i]), if settled.is_some() { 1.0 } else { turned(i, elapsed) }),
        };
        let centre = hand_row(if hand == 0 { DEALER_Y } else { PLAYER_Y })[i];
        table::show_card(&mut sprite, &mut transform, &CardLook { face, turn, centre, size: CARD }, 3.0, &mut art, &mut images);
    }
    let side = g.jackpot.is_some();
    let side_on = s.game().bet::<StudPoker>().is_some_and(|b| b.jackpot);
    let mut labels: Vec<(Entity, String)> = Vec::new();
    for (b, mut v, children) in &mut buttons {
        let show = match b {
            StudButton::Raise | StudButton::Fold => deciding,
            StudButton::SideBet => side && !s.in_round(),
        };
        v.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
        let text = match (b, round) {
            (StudButton::Raise, Some(r)) => format!("{} {}", s.t("APOSTAR"), s.show(2 * r.state.ante * r.denom)),
            (StudButton::Raise, None) => String::new(),
            (StudButton::Fold, _) => s.t("DESISTIR").to_owned(),
            (StudButton::SideBet, _) => {
                if side_on {
                    s.t("JACKPOT: SIM").to_owned()
                } else {
                    s.t("JACKPOT: NÃO").to_owned()
                }
            }
        };
        labels.extend(children.iter().map(|c| (c, text.clone())));
    }
    for (entity, text) in labels {
        if let Ok((_, mut t)) = texts.get_mut(entity)
            && t.0 != text
        {
            t.0 = text;
        }
    }
    for (kind, mut text) in &mut texts {
        let want = match kind {
            StudText::Dealer => match settled {
                Some(st) => format!("{} — {}", s.t("CROUPIER"), category_name(lang, st.dealer)),
                None => s.t("CROUPIER").to_owned(),
            },
            StudText::Player => match (round, settled) {
                (Some(_), Some(st)) => category_name(lang, st.player).to_owned(),
                (Some(r), None) => category_name(lang, evaluate(&r.state.deal.player).category()).to_owned(),
                (None, _) => s.t("Prima JOGAR para dar cartas").to_owned(),
            },
            StudText::Stakes => match round {
                Some(r) if r.state.side_bet > 0 => {
                    format!("{} {} · {} {}", s.t("Ante:"), s.show(r.state.ante * r.denom), s.t("aposta no jackpot:"), s.show(r.state.side_bet * r.denom))
                }
                Some(r) => format!("{} {}", s.t("Ante:"), s.show(r.state.ante * r.denom)),
                None => String::new(),
            },
            StudText::Outcome => match (round, settled) {
                (Some(r), Some(st)) => {
                    let side_win = r.settled_win.unwrap_or(0).saturating_sub(st.returned * r.denom);
                    let jackpot = if side_win > 0 { format!(" · JACKPOT {}", s.show(side_win)) } else { String::new() };
                    format!("{} — {}{jackpot}", outcome_text(&s, st.outcome), s.show(st.returned * r.denom))
                }
                _ => String::new(),
            },
            // The buttons' own labels, set above.
            StudText::SideBet => continue,
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// A touch on a decision (in a round) or on the side bet (between rounds).
fn touch_stud_buttons(presses: Res<Presses>, session: Res<SessionRes>, mode: Res<State<Mode>>) {
    let points = presses.on_game().to_vec();
    if points.is_empty() || !matches!(mode.get(), Mode::Idle | Mode::Playing | Mode::Attract) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    if s.rules::<StudPoker>().is_none() {
        return;
    }
    for p in points {
        let Some(b) = [StudButton::Raise, StudButton::Fold, StudButton::SideBet].into_iter().find(|b| b.area().contains(p.x, p.y)) else { continue };
        match b {
            StudButton::Raise if s.in_round() => {
                s.decide::<StudPoker>(Decision::Raise);
            }
            StudButton::Fold if s.in_round() => {
                s.decide::<StudPoker>(Decision::Fold);
            }
            StudButton::SideBet if !s.in_round() && s.rules::<StudPoker>().is_some_and(|g| g.0.jackpot.is_some()) => {
                s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
            }
            _ => continue,
        }
        info!("stud: {b:?} touched");
    }
}

/// A recalled póquer sem descarte round: the dealer's hand and the
/// player's, as dealt (M-15).
fn replay(ui: &mut egui::Ui, _s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == StudPoker::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<game_host::kinds::stud_poker::StudBet, StudDeal>>(first.step.data.clone()) else { return false };
    paint_hand(ui, &rec.deal.dealer.map(Some), &[]);
    paint_hand(ui, &rec.deal.player.map(Some), &[]);
    true
}
