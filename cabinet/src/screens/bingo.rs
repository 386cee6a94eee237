//! The bingo screen (issue 33), drawn by Bevy: up to four cards side by
//! side, daubed as the balls fall, the cells one number from a better prize
//! marked (B-95); the board of every ball with those drawn lit and the
//! count of balls drawn always on screen (B-13); the prizes per pattern;
//! the extra-ball offer with its price and what it could complete (M-11),
//! bought or declined by touch or F1/F2. The cards and balls were drawn and
//! committed at the deal and each purchase is a committed step: the screen
//! only paces the balls already drawn, one at a time (faster on F3 or a
//! touch on the board, never in another order). Help and recall stay egui.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::bingo::{Round, Variant};
use game_host::kind::GameKind;
use game_host::kinds::bingo::{Bingo, BingoBet, BingoDeal, BingoDecision, BingoStep};
use game_host::round::{Opening, Phase};
use game_host::session::Session;
use meters::RoundRecall;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::table::{self, GOLD};
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct BingoScreenPlugin;

impl Plugin for BingoScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<BingoTable>()
            .init_resource::<BallPace>()
            .add_systems(Update, (offer_keys, speed_up_key).run_if(in_state(Mode::Playing)))
            .add_systems(Update, (build_table, (pace_balls.in_set(crate::pacing::PaceOut), show_table, touch_table).chain().run_if(bingo_selected)).chain());
    }
}

fn bingo_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<Bingo>().is_some())
}

const CARDS: usize = 4;
/// A ball still in the drum: the ball's art dimmed to the board's blue.
const UNLIT: Color = Color::srgb(0.2, 0.23, 0.4);
const CELLS: usize = 27;
const BALLS: usize = 90;
/// A ball is shown this long after the one before it (B-31: a suitable
/// pace), unless the player speeds it up.
const BALL_SECONDS: f32 = 0.25;
const CARD_TOP: f32 = 120.0;
const CARD_HEIGHT: f32 = 280.0;
/// The board of every ball (B-13), as large as the room under the cards
/// and over the decision buttons allows (issue 45, defect 11: a player
/// reads it from the stool), drawn with the art kit's ball.
const BOARD: Area = Area::new(40.0, 436.0, 1090.0, 256.0);
/// The top of the prizes' list (its centre), under the cards' labels.
const PRIZES: (f32, f32) = (1640.0, CARD_TOP + CARD_HEIGHT + 48.0);
/// A ball's number while it is still in the drum: light on the dimmed
/// ball, read from the stool (issue 75: it was small and grey on dark).
const IN_THE_DRUM: Color = Color::srgb(0.84, 0.87, 0.96);
/// The last ball drawn, large, beside the board.
const LAST_BALL: (f32, f32) = (1262.0, 530.0);
const LAST_BALL_SIZE: f32 = 156.0;

/// The buttons: buy the extra ball (F1), stop (F2).
const BUTTONS: [BingoDecision; 2] = [BingoDecision::Buy, BingoDecision::Stop];
const KEYS: [KeyCode; 2] = [KeyCode::F1, KeyCode::F2];

/// The cell of card `i` of `n` at grid cell `c`, on `variant`'s grid.
fn cell_area(variant: Variant, n: usize, i: usize, c: usize) -> Area {
    let slot = (1800.0 / n.max(1) as f32).min(460.0);
    let (cols, rows) = (variant.columns() as f32, variant.rows() as f32);
    let size = ((slot - 24.0) / cols).min(CARD_HEIGHT / rows);
    let (w, h) = (size * cols, size * rows);
    let cx = 960.0 + (i as f32 - (n as f32 - 1.0) / 2.0) * slot;
    let (r, k) = ((c / variant.columns()) as f32, (c % variant.columns()) as f32);
    Area::new(cx - w / 2.0 + k * size + 2.0, CARD_TOP + (CARD_HEIGHT - h) / 2.0 + r * size + 2.0, size - 4.0, size - 4.0)
}

/// Ball `b` (1-based) of a drum of `n` on the board.
fn board_area(n: usize, b: usize) -> Area {
    let cols = if n <= 30 { 15 } else { n.div_ceil(5) };
    let rows = n.div_ceil(cols);
    let size = (BOARD.w / cols as f32).min(BOARD.h / rows as f32).min(76.0);
    let k = b - 1;
    Area::new(BOARD.x + (k % cols) as f32 * size, BOARD.y + (k / cols) as f32 * size, size - 4.0, size - 4.0)
}

/// How many of the round's balls the screen shows now.
#[derive(Resource, Default)]
struct BallPace {
    round: Option<u64>,
    shown: usize,
    since: f32,
}

#[derive(Resource, Default)]
struct BingoTable {
    game: Option<String>,
}

#[derive(Component)]
struct BingoRoot;
#[derive(Component, Clone, Copy)]
struct CellMark(usize, usize);
#[derive(Component, Clone, Copy)]
struct BallMark(usize);
/// The large ball showing the last one drawn.
#[derive(Component)]
struct LastBall;
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum BingoText {
    Cell(usize, usize),
    Ball(usize),
    CardLabel(usize),
    Count,
    LastBall,
    Prizes,
    Offer,
    Outcome,
    Button(usize),
}
#[derive(Component, Clone, Copy)]
struct BingoButton(usize);

/// The offer's price when the credit meter covers it, as the screen shows
/// and takes it (the core refuses the rest anyway).
fn offer(s: &Session, pace: &BallPace) -> Option<game_core::bingo::Offer> {
    let r = s.round::<Bingo>().filter(|r| r.phase == Phase::Decisions)?;
    if pace.shown < r.state.shown() {
        return None; // the balls are still falling
    }
    r.state.offer()
}

fn label(s: &Session, k: usize) -> String {
    match BUTTONS[k] {
        BingoDecision::Buy => s.t("COMPRAR BOLA").to_owned(),
        BingoDecision::Stop => s.t("PARAR").to_owned(),
    }
}

fn offer_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>, pace: Res<BallPace>) {
    let Ok(mut s) = session.0.lock() else { return };
    if s.rules::<Bingo>().is_none() {
        return;
    }
    for (k, key) in KEYS.iter().enumerate() {
        if keys.just_pressed(*key) && offer(&s, &pace).is_some() {
            buy_or_stop(&mut s, k);
            return;
        }
    }
}

fn buy_or_stop(s: &mut Session, k: usize) {
    let Some(r) = s.round::<Bingo>() else { return };
    let price = r.state.offer().map_or(0, |o| o.price * r.denom);
    if BUTTONS[k] == BingoDecision::Buy && price > s.machine().credit() {
        return;
    }
    s.decide::<Bingo>(BUTTONS[k]);
    info!("bingo: {:?}", BUTTONS[k]);
}

fn speed_up_key(keys: Res<ButtonInput<KeyCode>>, mut pace: ResMut<BallPace>, session: Res<SessionRes>) {
    if keys.just_pressed(KeyCode::F3)
        && let Ok(s) = session.0.lock()
        && let Some(r) = s.round::<Bingo>()
    {
        pace.shown = pace.shown.max(r.state.shown());
    }
}

/// One more of the committed balls every `BALL_SECONDS`, in their order.
fn pace_balls(time: Res<Time>, session: Res<SessionRes>, mut pace: ResMut<BallPace>, mut paced: ResMut<crate::pacing::PacedOut>) {
    let Ok(s) = session.0.lock() else { return };
    let Some(r) = s.round::<Bingo>() else { return };
    if pace.round != Some(r.id) {
        *pace = BallPace { round: Some(r.id), shown: 0, since: 0.0 };
    }
    let target = r.state.shown();
    if pace.shown > target {
        pace.shown = target;
    }
    pace.since += time.delta_secs();
    // An extra ball bought is shown at once; the fixed draw one at a time.
    if pace.shown >= r.state.base {
        pace.shown = target;
    } else if pace.since >= BALL_SECONDS {
        pace.since = 0.0;
        pace.shown += 1;
    }
    // Issue 45: the balls keep falling on a still screen (the round may
    // be settled already), and the win's chime waits for the last.
    paced.0 |= pace.shown < target;
}

#[allow(clippy::too_many_arguments)]
fn build_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<BingoTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut roots: Query<(Entity, &mut Visibility), With<BingoRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<Bingo>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.game, &mut roots) else { return };
    let Some(game) = s.rules::<Bingo>().map(|b| b.0.clone()) else { return };
    let drum = usize::from(game.variant.balls());
    commands.spawn((BingoRoot, Transform::default(), visibility)).with_children(|root| {
        let text = |t: BingoText, x: f32, y: f32, size: f32, colour: Color| {
            (t, stage::text(&fonts, "", size, colour), Transform::from_translation(stage::at(x, y, 3.0)))
        };
        for i in 0..CARDS {
            for c in 0..CELLS.min(game.variant.cells()) {
                root.spawn((CellMark(i, c), Sprite::from_color(Color::WHITE, Vec2::ONE), Transform::default(), Visibility::Hidden));
                root.spawn(text(BingoText::Cell(i, c), 0.0, 0.0, 22.0, Color::srgb(0.1, 0.1, 0.15)));
            }
            root.spawn(text(BingoText::CardLabel(i), 0.0, CARD_TOP + CARD_HEIGHT + 18.0, 20.0, Color::WHITE));
        }
        let ball_art = art.get(&mut images, "bingo/ball.svg", board_area(drum, 1).w.round() as u32);
        // One size for every call, as large as a ball holds the longest
        // ("B-11" on a 75-ball board: issue 75, the calls ran into each
        // other when sized for two digits).
        let side = board_area(drum, 1).w;
        let longest = (1..=drum.min(BALLS)).map(|b| game.call(b as u8).chars().count()).max().unwrap_or(1).max(1) as f32;
        let call_size = (side * 0.46).min(30.0).min(0.9 * side / (0.62 * longest));
        for b in 1..=drum.min(BALLS) {
            let a = board_area(drum, b);
            let (x, y) = a.centre();
            root.spawn((
                BallMark(b),
                Sprite { image: ball_art.clone(), color: UNLIT, custom_size: Some(Vec2::new(a.w, a.h)), ..default() },
                Transform::from_translation(stage::at(x, y, 2.0)),
            ));
            root.spawn((
                BingoText::Ball(b),
                stage::text(&fonts, game.call(b as u8), call_size, IN_THE_DRUM),
                Transform::from_translation(stage::at(x, y, 3.0)),
            ));
        }
        let big = art.get(&mut images, "bingo/ball.svg", LAST_BALL_SIZE as u32);
        root.spawn((
            LastBall,
            Sprite { image: big, custom_size: Some(Vec2::splat(LAST_BALL_SIZE)), ..default() },
            Transform::from_translation(stage::at(LAST_BALL.0, LAST_BALL.1, 2.0)),
            Visibility::Hidden,
        ));
        root.spawn(text(BingoText::LastBall, LAST_BALL.0, LAST_BALL.1, 50.0, Color::srgb(0.1, 0.1, 0.15)));
        root.spawn(text(BingoText::Count, LAST_BALL.0, LAST_BALL.1 + LAST_BALL_SIZE / 2.0 + 32.0, 34.0, GOLD));
        // The prizes' list under the fourth card's label, never into it
        // (issue 75: "CARTÃO 4: QUATRO CANTOS 3×" ran into it).
        root.spawn((text(BingoText::Prizes, PRIZES.0, PRIZES.1, 24.0, Color::WHITE), bevy::sprite::Anchor::TOP_CENTER));
        // The extra ball's offer beside the decision buttons, wrapped to
        // its own width (issue 45: never over a button's label).
        let beside = crate::layout::decision_button(BUTTONS.len() - 1);
        let (x0, width) = (beside.x + beside.w + 40.0, crate::layout::WIDTH - 40.0 - (beside.x + beside.w + 40.0));
        root.spawn((
            BingoText::Offer,
            stage::text(&fonts, "", 20.0, Color::WHITE),
            bevy::text::TextBounds::new_horizontal(width),
            bevy::sprite::Anchor::TOP_LEFT,
            Transform::from_translation(stage::at(x0, beside.y, 3.0)),
        ));
        root.spawn(text(BingoText::Outcome, 1640.0, 650.0, 26.0, GOLD));
        for k in 0..BUTTONS.len() {
            let a = crate::layout::decision_button(k);
            let (cx, cy) = a.centre();
            let fill = if k == 0 { Color::srgb(0.12, 0.55, 0.23) } else { Color::srgb(0.7, 0.08, 0.16) };
            root.spawn((
                BingoButton(k),
                Sprite::from_color(fill, Vec2::new(a.w, a.h)),
                Transform::from_translation(stage::at(cx, cy, 2.5)),
                Visibility::Hidden,
            ))
            .with_children(|b| {
                b.spawn((BingoText::Button(k), stage::text(&fonts, "", 20.0, Color::WHITE), Transform::from_xyz(0.0, 0.0, 0.5)));
            });
        }
    });
}

#[allow(clippy::type_complexity)]
fn show_table(
    session: Res<SessionRes>,
    pace: Res<BallPace>,
    mut cells: Query<(&CellMark, &mut Sprite, &mut Transform, &mut Visibility), (Without<BallMark>, Without<BingoButton>)>,
    mut balls: Query<(&BallMark, &mut Sprite), (Without<CellMark>, Without<BingoButton>)>,
    mut buttons: Query<(&BingoButton, &mut Visibility), (Without<CellMark>, Without<BallMark>)>,
    mut last_ball: Query<&mut Visibility, (With<LastBall>, Without<CellMark>, Without<BingoButton>)>,
    mut texts: Query<(&BingoText, &mut Text2d, &mut Transform, &mut TextColor), (Without<CellMark>, Without<BallMark>, Without<BingoButton>)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let Some(game) = s.rules::<Bingo>().map(|b| b.0.clone()) else { return };
    let round = s.round::<Bingo>();
    let state: Option<&Round> = round.map(|r| &r.state);
    let shown = state.map_or(0, |r| pace.shown.min(r.shown()));
    let n = state.map_or(0, |r| r.cards.len().min(CARDS));
    let balls_now: Vec<u8> = state.map_or(Vec::new(), |r| r.sequence[..shown].to_vec());
    let marked: Vec<u32> = (0..n).map(|i| state.map_or(0, |r| r.marked_after(i, shown))).collect();
    let settled_view = state.is_some_and(|r| shown >= r.shown());
    // B-95: the cells one number from a better prize, once the balls have fallen.
    let near: Vec<u32> = (0..n).map(|i| if settled_view { state.map_or(0, |r| r.one_to_go(i).iter().fold(0, |m, (_, c)| m | c)) } else { 0 }).collect();
    for (m, mut sprite, mut transform, mut vis) in &mut cells {
        let (i, c) = (m.0, m.1);
        let Some(card) = state.and_then(|r| r.cards.get(i)).filter(|_| i < n) else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        let a = cell_area(game.variant, n, i, c);
        let (x, y) = a.centre();
        transform.translation = stage::at(x, y, 2.0);
        sprite.custom_size = Some(Vec2::new(a.w, a.h));
        let blank = card.cells.get(c).is_none_or(|&v| v == 0) && game.variant.free_cell() != Some(c);
        sprite.color = if blank {
            Color::srgb(0.2, 0.22, 0.35)
        } else if marked[i] >> c & 1 == 1 {
            GOLD
        } else if near[i] >> c & 1 == 1 {
            Color::srgb(1.0, 0.55, 0.55)
        } else {
            Color::srgb(0.97, 0.96, 0.92)
        };
    }
    for (b, mut sprite) in &mut balls {
        let lit = balls_now.contains(&(b.0 as u8));
        let extra = state.is_some_and(|r| r.sequence[..shown].iter().position(|&x| usize::from(x) == b.0).is_some_and(|p| p >= r.base));
        // The ball's own colours when drawn, orange-tinted when bought,
        // dimmed to the board's blue while still in the drum.
        let c = if extra {
            Color::srgb(1.0, 0.55, 0.3)
        } else if lit {
            Color::WHITE
        } else {
            UNLIT
        };
        if sprite.color != c {
            sprite.color = c;
        }
    }
    for mut v in &mut last_ball {
        v.set_if_neq(if shown > 0 { Visibility::Inherited } else { Visibility::Hidden });
    }
    let offered = offer(&s, &pace);
    let credit = s.machine().credit();
    let affordable = offered.as_ref().zip(round).is_some_and(|(o, r)| o.price * r.denom <= credit);
    for (b, mut v) in &mut buttons {
        let show = offered.is_some() && (b.0 == 1 || affordable);
        v.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
    }
    let prizes = state.map(|r| r.prizes_after(shown)).unwrap_or_default();
    for (kind, mut text, mut transform, mut colour) in &mut texts {
        let want = match *kind {
            BingoText::Cell(i, c) => match state.and_then(|r| r.cards.get(i)).filter(|_| i < n) {
                Some(card) => {
                    let a = cell_area(game.variant, n, i, c);
                    let (x, y) = a.centre();
                    transform.translation = stage::at(x, y, 3.0);
                    match card.cells.get(c).copied() {
                        // The free centre is marked gold from the start (B-72).
                        Some(0) | None => String::new(),
                        Some(v) => game.symbols.get(usize::from(v) - 1).cloned().unwrap_or_else(|| v.to_string()),
                    }
                }
                None => String::new(),
            },
            BingoText::Ball(b) => {
                let c = if balls_now.contains(&(b as u8)) { Color::srgb(0.1, 0.1, 0.15) } else { IN_THE_DRUM };
                colour.set_if_neq(TextColor(c));
                continue;
            }
            BingoText::CardLabel(i) => match state.filter(|_| i < n) {
                Some(r) => {
                    // Under the card's last row, whatever its shape.
                    let a = cell_area(game.variant, n, i, game.variant.cells() - 1 - game.variant.columns() / 2);
                    let (x, y) = (stage::at(a.centre().0, a.y + a.h + 22.0, 3.0).x, stage::at(0.0, a.y + a.h + 22.0, 3.0).y);
                    transform.translation.x = x;
                    transform.translation.y = y;
                    let prize = prizes.get(i).copied().flatten().and_then(|p| r.patterns().get(p));
                    let alert = if near.get(i).is_some_and(|&c| c != 0) { s.t(" · FALTA 1") } else { "" };
                    match prize {
                        Some(p) => format!("{} {}: {} {}×{alert}", s.t("CARTÃO"), i + 1, s.lang().term(&p.name).to_uppercase(), p.pays),
                        None => format!("{} {}{alert}", s.t("CARTÃO"), i + 1),
                    }
                }
                None if i == 0 && state.is_none() => {
                    // Where the cards will lie, across the screen's middle
                    // (issue 75: it stood half off the screen's left edge).
                    transform.translation.x = stage::at(crate::layout::WIDTH / 2.0, 0.0, 0.0).x;
                    transform.translation.y = stage::at(0.0, CARD_TOP + CARD_HEIGHT / 2.0, 0.0).y;
                    s.t("Prima JOGAR para comprar os cartões").to_owned()
                }
                None => String::new(),
            },
            BingoText::Count => format!("{} {shown}", s.t("BOLAS")),
            BingoText::LastBall => state.and_then(|r| shown.checked_sub(1).and_then(|k| r.sequence.get(k))).map_or(String::new(), |&b| game.call(b)),
            BingoText::Prizes => {
                game.patterns.iter().rev().map(|p| format!("{} {}×", s.lang().term(&p.name).to_uppercase(), p.pays)).collect::<Vec<_>>().join("\n")
            }
            BingoText::Offer => match (&offered, round) {
                (Some(o), Some(r)) => {
                    let mut completes: Vec<String> = o
                        .completes
                        .iter()
                        .filter_map(|&(ball, card, p)| {
                            r.state.patterns().get(p).map(|p| format!("{} → {} {} {}", game.call(ball), s.t("cartão"), card + 1, s.lang().term(&p.name)))
                        })
                        .collect();
                    completes.truncate(4);
                    format!("{} {} · {}: {}", s.t("BOLA EXTRA"), s.show(o.price * r.denom), s.t("pode completar"), completes.join(", "))
                }
                _ => String::new(),
            },
            BingoText::Outcome => match round {
                Some(r) if r.phase == Phase::Ended && settled_view => {
                    format!("{} {} · {} {}", s.t("PAGO"), s.show(r.state.win() * r.denom), s.t("em jogo"), s.show(r.state.staked() * r.denom))
                }
                _ => String::new(),
            },
            BingoText::Button(k) => {
                if offered.is_some() {
                    label(&s, k)
                } else {
                    String::new()
                }
            }
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

/// A touch on an offered button buys or stops; a touch on the board shows
/// every ball already drawn at once.
fn touch_table(presses: Res<Presses>, session: Res<SessionRes>, mode: Res<State<Mode>>, mut pace: ResMut<BallPace>) {
    let points = presses.on_game().to_vec();
    if points.is_empty() || !matches!(mode.get(), Mode::Idle | Mode::Playing) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    for p in points {
        if BOARD.contains(p.x, p.y) {
            if let Some(r) = s.round::<Bingo>() {
                pace.shown = pace.shown.max(r.state.shown());
            }
            continue;
        }
        if offer(&s, &pace).is_none() {
            continue;
        }
        if let Some(k) = (0..BUTTONS.len()).find(|&k| crate::layout::decision_button(k).contains(p.x, p.y)) {
            buy_or_stop(&mut s, k);
        }
    }
}

/// A recalled bingo round: the cards with the numbers drawn marked, the
/// balls in order, each purchase and its price (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Bingo::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<BingoBet, BingoDeal>>(first.step.data.clone()) else { return false };
    // The recalled round's own game, whatever game is selected now.
    let Some(g) = s.games().iter().find_map(|g| g.rules::<Bingo>().filter(|b| b.0.id == rec.game)) else { return false };
    let steps: Vec<BingoStep> = r.steps[1..].iter().filter_map(|st| serde_json::from_value::<BingoStep>(st.step.data.clone()).ok()).collect();
    let buys: Vec<bool> = steps.iter().map(|st| st.decision == BingoDecision::Buy).collect();
    let Ok(round) = Round::replay(&g.0, rec.bet.bet, rec.deal.cards, rec.deal.balls, &buys) else { return false };
    let drawn = round.balls_shown();
    // Issue 75: the cards in pictures, side by side, each number gold as
    // the round's balls marked it; then the balls, the bought ones ringed.
    ui.horizontal_wrapped(|ui| {
        for (i, card) in round.cards.iter().enumerate() {
            let prize =
                round.prizes().get(i).copied().flatten().and_then(|p| round.patterns().get(p)).map_or("—".to_owned(), |p| s.lang().term(&p.name).to_owned());
            ui.vertical(|ui| {
                ui.label(format!("{} {} — {prize}", s.t("Cartão"), i + 1));
                let name = |v: u8| g.0.symbols.get(usize::from(v) - 1).cloned().unwrap_or_else(|| v.to_string());
                crate::screens::pictures::paint_bingo_card(
                    ui,
                    &card.cells,
                    g.0.variant.columns(),
                    g.0.variant.free_cell(),
                    round.marked_after(i, drawn.len()),
                    &name,
                );
            });
            ui.add_space(24.0);
        }
    });
    let called: Vec<String> = drawn.iter().map(|&b| g.0.call(b)).collect();
    ui.label(format!("{} ({})", s.t("Bolas"), drawn.len()));
    crate::screens::pictures::paint_balls(ui, &called, round.base);
    for (k, st) in steps.iter().enumerate() {
        ui.label(match st.decision {
            BingoDecision::Buy => format!("{} {}: {}", s.t("Bola extra"), k + 1, s.show(st.price * r.denom)),
            BingoDecision::Stop => s.t("Parou").to_owned(),
        });
    }
    true
}
