//! The fantan screen (issue 72): the heap of beads counted off four at a
//! time down to the remainder the core committed (`motion`), the cloth of
//! the 38 chances (fan, nim, nga, sé-sam-hong, kuoc; docs/fantan.md) with
//! the bet's chips by touch (`screens::cloth`), the shared edit buttons,
//! the result itemised in money (a prize less the bank's 5 % is cents, not
//! whole credits), and the recall page.

pub mod motion;

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::fantan::Spot;
use game_host::kind::GameKind;
use game_host::kinds::fantan::{Fantan, FantanBet, FantanRound, Heap, remainder_colour};
use game_host::round::{Opening, Phase};
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::chips;
use crate::screens::cloth::{self, Cell, ClothText, LitSpot, Place};
use crate::screens::help::HelpOpen;
use crate::screens::reels::Reveal;
use crate::screens::table;
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct FantanScreenPlugin;

impl Plugin for FantanScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        app.init_resource::<FantanTable>()
            .add_systems(Update, advance_count.run_if(in_state(Mode::Playing)))
            .add_systems(Update, touch_cloth.run_if(in_state(Mode::Idle)))
            .add_systems(Update, (build_fantan_table, show_fantan).chain());
    }
}

/// The heap's centre and radius, the row the remainder is laid in, and the
/// result's place (design units).
const HEAP: (f32, f32) = (310.0, 340.0);
const HEAP_R: f32 = 130.0;
const BEAD: f32 = 26.0;
const RESULT_AT: (f32, f32) = (50.0, 560.0);

#[derive(Resource, Default)]
struct FantanTable {
    key: Option<String>,
    cells: Vec<Place>,
    chips_on: Option<Vec<(serde_json::Value, u64)>>,
}

#[derive(Component)]
struct FantanRoot;
/// A bead of the heap, by its index.
#[derive(Component)]
struct Bead(usize);
#[derive(Component, Clone, Copy)]
struct FantanChip;

/// Where a chance stands on the cloth: fan's four, nim's twelve, nga's
/// twelve, then sé-sam-hong's four and kuoc's six, a row each.
pub fn cell_of(spot: Spot) -> Area {
    let all = Spot::all();
    let row_of = |s: &Spot| match s {
        Spot::Fan(_) => 0,
        Spot::Nim(..) => 1,
        Spot::Nga(..) => 2,
        Spot::SeSamHong(..) | Spot::Kuoc(..) => 3,
    };
    let row = row_of(&spot);
    let in_row: Vec<&Spot> = all.iter().filter(|s| row_of(s) == row).collect();
    let k = in_row.iter().position(|s| **s == spot).unwrap_or(0) as f32;
    let w = 1200.0 / in_row.len() as f32;
    let (y, h) = [(150.0, 110.0), (272.0, 100.0), (384.0, 100.0), (496.0, 100.0)][row];
    Area::new(680.0 + k * w, y, w - 6.0, h)
}

/// A chance's label on the cloth, in the player's language.
fn label(spot: Spot, s: &Session) -> String {
    let tie = s.t("empata");
    match spot {
        Spot::Fan(n) => format!("FAN {n}\n3:1"),
        Spot::Nim(w, t) => format!("NIM {w}\n{tie} {t}"),
        Spot::Nga(a, b, t) => format!("NGA {a}-{b}\n{tie} {t}"),
        Spot::SeSamHong(..) => spot.name(s.lang() == Lang::Pt).to_uppercase().replacen(' ', "\n", 1),
        Spot::Kuoc(a, b) => format!("KUOC\n{a}-{b}"),
    }
}

fn cells(s: &Session) -> Vec<Cell> {
    Spot::all()
        .into_iter()
        .map(|spot| Cell {
            spot: serde_json::to_value(spot).unwrap_or_default(),
            area: cell_of(spot),
            label: label(spot, s),
            fill: match spot {
                Spot::Fan(_) => Color::srgb(0.45, 0.08, 0.1),
                Spot::Nim(..) => Color::srgb(0.06, 0.3, 0.16),
                Spot::Nga(..) => Color::srgb(0.1, 0.15, 0.4),
                Spot::SeSamHong(..) => Color::srgb(0.35, 0.12, 0.4),
                Spot::Kuoc(..) => Color::srgb(0.08, 0.22, 0.12),
            },
            size: if matches!(spot, Spot::Fan(_)) { 26.0 } else { 15.0 },
            raised: false,
        })
        .collect()
}

/// The result itemised in money: each chance that returned something, and
/// the total returned.
fn result_text(s: &Session, round: &FantanRound, denom: meters::Cents) -> String {
    let pt = s.lang() == Lang::Pt;
    let mut lines = vec![format!("{} {}", s.t("resto").to_uppercase(), round.remainder)];
    let returned: Vec<(Spot, u64, u64)> =
        round.settlement(denom).into_iter().filter_map(|(spot, stake, back)| back.filter(|&b| b > 0).map(|b| (spot, stake, b))).collect();
    for (spot, stake, back) in returned.iter().take(4) {
        lines.push(format!("{}: {stake} {} → {}", spot.name(pt), s.t("créd."), s.show(*back)));
    }
    if returned.len() > 4 {
        lines.push(format!("… {} {}", returned.len() - 4, s.t("apostas mais")));
    }
    let total: u64 = returned.iter().map(|(_, _, b)| b).sum();
    if total > 0 {
        lines.push(format!("{} {}", s.t("TOTAL DEVOLVIDO"), s.show(total)));
    }
    lines.join("\n")
}

#[allow(clippy::too_many_arguments)]
fn build_fantan_table(
    mut commands: Commands,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<FantanTable>,
    mut roots: Query<(Entity, &mut Visibility), With<FantanRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<Fantan>().is_some().then(|| format!("{}/{:?}", s.game().id(), s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    *table = FantanTable { key: table.key.take(), ..default() };
    if table.key.is_none() {
        return;
    }
    let bead = art.get(&mut images, "roulette/ball.svg", 40);
    let mut cells_at = Vec::new();
    commands.spawn((FantanRoot, Transform::default(), visibility)).with_children(|root| {
        let felt = Area::new(60.0, 180.0, 500.0, 340.0);
        let (fx, fy) = felt.centre();
        root.spawn((Sprite::from_color(Color::srgb(0.05, 0.36, 0.18), Vec2::new(felt.w, felt.h)), Transform::from_translation(stage::at(fx, fy, 0.9))));
        for i in 0..4 * motion::FOURS + 4 {
            root.spawn((Bead(i), Sprite { image: bead.clone(), custom_size: Some(Vec2::splat(BEAD)), ..default() }, Transform::default(), Visibility::Hidden));
        }
        cells_at = cloth::spawn_cells(root, &fonts, cells(&s));
        chips::spawn_edit_buttons(root, &fonts, &s);
        cloth::spawn_texts(root, &fonts, RESULT_AT);
    });
    table.cells = cells_at;
}

/// The round's clock on this screen (a round from before it began: at rest).
fn clock(reveal: &Reveal, id: u64, now: f32) -> f32 {
    if reveal.round == Some(id) { now - reveal.started } else { motion::shown_by() + 10.0 }
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn show_fantan(
    mut commands: Commands,
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<FantanTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    roots: Query<Entity, With<FantanRoot>>,
    chips_shown: Query<Entity, With<FantanChip>>,
    mut beads: Query<(&Bead, &mut Sprite, &mut Transform, &mut Visibility), Without<LitSpot>>,
    mut lit: Query<(&LitSpot, &mut Visibility), Without<Bead>>,
    mut texts: Query<(&ClothText, &mut Text2d)>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if table.key.is_none() || s.rules::<Fantan>().is_none() {
        return;
    }
    let round = s.round::<Fantan>();
    let (rested, heap, result) = match round {
        Some(r) => {
            let t = clock(&reveal, r.id, time.elapsed_secs());
            // The result is itemised once the round is settled, in the
            // frame the win meter shows its win (issue 75).
            let rested = motion::counted(t) && r.phase != Phase::Presenting;
            let text = if rested { result_text(&s, &r.state, r.denom) } else { String::new() };
            (rested, Some((motion::left(t, r.state.remainder), r.state.remainder, motion::counted(t))), text)
        }
        None => (false, None, s.t("FAÇAM AS VOSSAS APOSTAS").to_owned()),
    };
    for (bead, mut sprite, mut tf, mut vis) in &mut beads {
        let Some((left, remainder, counted)) = heap else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        let n = 4 * motion::FOURS + usize::from(remainder);
        // The first beads go four at a time; the last `left` stay.
        let shown = bead.0 < n && bead.0 >= n - left;
        vis.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
        // Counted: the remainder stands in a row under the heap, in gold.
        let (x, y, colour) = if counted {
            let k = (bead.0 + usize::from(remainder)).saturating_sub(n) as f32;
            (HEAP.0 + (k - (f32::from(remainder) - 1.0) / 2.0) * 60.0, HEAP.1, table::GOLD)
        } else {
            let (dx, dy) = motion::bead_at(bead.0, n, HEAP_R);
            (HEAP.0 + dx, HEAP.1 + dy, Color::WHITE)
        };
        tf.translation = stage::at(x, y, 1.5);
        tf.scale = Vec3::splat(if counted { 1.8 } else { 1.0 });
        if sprite.color != colour {
            sprite.color = colour;
        }
    }
    cloth::light_winners(&mut lit, rested, |i| {
        round.is_some_and(|r| table.cells.get(i).is_some_and(|c| serde_json::from_value::<Spot>(c.spot.clone()).is_ok_and(|sp| sp.wins(r.state.remainder))))
    });
    let bet = s.game().bet::<Fantan>();
    cloth::show_texts(&mut texts, &s, &result, bet.map(|b| b.chip));
    // The chips: the round's while it is open, else the bet on the cloth.
    let layout: Vec<(serde_json::Value, u64)> = match round.filter(|r| r.phase != Phase::Ended) {
        Some(r) => &r.state.bet,
        None => match bet {
            Some(b) => b,
            None => return,
        },
    }
    .spots
    .iter()
    .map(|(spot, v)| (serde_json::to_value(spot).unwrap_or_default(), *v))
    .collect();
    let root = roots.single().ok();
    let table = &mut *table;
    cloth::keep_chips(&mut commands, root, &chips_shown, &mut table.chips_on, layout, (&fonts, &mut art, &mut images), &table.cells, FantanChip);
}

/// Tell the host the count was shown once the remainder rests (at once
/// when the player pressed play again, or for a resumed round).
fn advance_count(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<Fantan>().filter(|r| r.phase != Phase::Ended) else { return };
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, time.elapsed_secs(), motion::shown_by()) {
        s.revealed();
    }
}

/// A touch on a chance puts a chip there; on an edit button, that edit.
fn touch_cloth(keys: Res<ButtonInput<KeyCode>>, presses: Res<Presses>, session: Res<SessionRes>, help: Res<HelpOpen>, table: Res<FantanTable>) {
    if help.0 || table.key.is_none() {
        return;
    }
    let points = presses.on_game().to_vec();
    if points.is_empty() && !cloth::any_edit_key(&keys) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    if s.rules::<Fantan>().is_some() {
        cloth::touch(&mut s, &keys, &points, &table.cells, "fantan");
    }
}

fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Fantan::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<FantanBet, Heap>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    let remainder = o.deal.remainder;
    ui.heading(s.t("Resto"));
    ui.horizontal(|ui| crate::screens::pictures::paint_section(ui, &remainder.to_string(), remainder_colour(remainder), ""));
    let round = FantanRound { bet: o.bet, remainder };
    crate::screens::pictures::paint_settlement(
        ui,
        "fantan-replay",
        s,
        round.settlement(o.denom).into_iter().map(|(spot, stake, back)| (spot.name(pt), stake, s.show(back.unwrap_or(0)))),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chance_has_its_own_place_on_the_cloth() {
        let all = Spot::all();
        for (i, a) in all.iter().enumerate() {
            let area = cell_of(*a);
            assert!(area.x >= 680.0 && area.x + area.w <= 1880.0 + 0.01 && area.y + area.h <= 700.0, "{a:?} {area:?}");
            for b in &all[i + 1..] {
                assert!(!area.overlaps(&cell_of(*b)), "{a:?} and {b:?}");
            }
        }
    }
}
