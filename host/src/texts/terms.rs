//! The glossary, the catalogue's second half (issue 45, defect 10): the
//! names the approved paytables
//! give in Portuguese (M-10) — games, reel symbols, bingo patterns — with
//! their English, so that English mode never shows a Portuguese name. A
//! brand keeps its name in both languages (an entry with the same words).
//! Draw poker's hands carry both names in the paytable itself.
//!
//! `glossary_covers_every_shipped_name` (host tests) checks every name of
//! every approved paytable against it: a new game's names are added here
//! before it can pass. The interface's own words are in `words.rs`.

/// (Portuguese, English), sorted by the Portuguese for the search.
///
/// The progressive levels' names of the shipped configuration and pools
/// are here too (an operator naming a level anew adds its English).
pub(super) const TERMS: &[(&str, &str)] = &[
    ("Bacará", "Baccarat"),
    ("Bacará (empate 9:1)", "Baccarat (tie 9:1)"),
    ("Bacará EZ", "EZ Baccarat"),
    ("Bacará sem comissão", "No-Commission Baccarat"),
    ("Bacará sem comissão (Macau)", "No-Commission Baccarat (Macau)"),
    ("Banca Francesa", "Banca Francesa"),
    ("Bar", "Bar"),
    ("Barra Dupla", "Double Bar"),
    ("Barra Tripla", "Triple Bar"),
    ("Bingo 30", "Bingo 30"),
    ("Bingo 75", "Bingo 75"),
    ("Bingo 80", "Bingo 80"),
    ("Bingo 90", "Bingo 90"),
    ("Blackjack", "Blackjack"),
    ("Blackjack clássico", "Classic Blackjack"),
    ("Bonus Poker 8/5", "Bonus Poker 8/5"),
    ("Boule", "Boule"),
    ("Carpa", "Koi"),
    ("Cereja", "Cherry"),
    ("Cogumelo", "Mushroom"),
    ("Coruja", "Owl"),
    ("Cussec (Sic Bo)", "Cussec (Sic Bo)"),
    ("Dama", "Queen"),
    ("Deuces Wild", "Deuces Wild"),
    ("Deuces Wild Bonus", "Deuces Wild Bonus"),
    ("Dez", "Ten"),
    ("Diamante", "Diamond"),
    ("Double Double Bonus 9/6", "Double Double Bonus 9/6"),
    ("Dragão", "Dragon"),
    ("Duplo", "Double"),
    ("Esmeralda", "Emerald"),
    ("Fantan", "Fan-Tan"),
    ("Floresta Encantada", "Enchanted Forest"),
    ("Folha", "Leaf"),
    ("Grande", "Grand"),
    ("Jackpot", "Jackpot"),
    ("Jacks or Better 9/6", "Jacks or Better 9/6"),
    ("Jacks or Better 9/6, Sequential Royal", "Jacks or Better 9/6, Sequential Royal"),
    ("Joker Poker", "Joker Poker"),
    ("Lanterna", "Lantern"),
    ("Lua (scatter)", "Moon (scatter)"),
    ("Minas de Ouro", "Gold Mines"),
    ("Mini", "Mini"),
    ("Mistério", "Mystery"),
    ("Navio", "Ship"),
    ("Nove", "Nine"),
    ("Peixe", "Fish"),
    ("Picareta (wild)", "Pickaxe (wild)"),
    ("Pérola (bónus)", "Pearl (bonus)"),
    ("Pérola (wild)", "Pearl (wild)"),
    ("Pérolas do Dragão", "Dragon Pearls"),
    ("Póquer sem Descarte", "Stud Poker"),
    ("Rei", "King"),
    ("Roda da Sorte", "Wheel of Fortune"),
    ("Roleta Americana", "American Roulette"),
    ("Roleta Francesa", "French Roulette"),
    ("Rubi", "Ruby"),
    ("Sete", "Seven"),
    ("Sevens Classic", "Sevens Classic"),
    ("Templo (wild)", "Temple (wild)"),
    ("Tesouro (scatter)", "Treasure (scatter)"),
    ("Tesouro do Oceano", "Ocean Treasure"),
    ("Valete", "Jack"),
    ("Vazio", "Blank"),
    ("bingo", "bingo"),
    ("cruz", "cross"),
    ("duas linhas", "two lines"),
    ("linha", "line"),
    ("moldura", "frame"),
    ("quatro cantos", "four corners"),
    ("Árvore (wild)", "Tree (wild)"),
    ("Ás", "Ace"),
];
