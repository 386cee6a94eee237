//! The simulated ticket printer: a cash-out ticket written to a text file
//! with the machine id, date, amount in figures and words, the validation
//! number and an Interleaved 2 of 5 barcode drawn in text (F-45).

use std::path::{Path, PathBuf};

use meters::Currency;
use meters::ticket::Ticket;

const UNITS: [&str; 20] = [
    "zero",
    "um",
    "dois",
    "três",
    "quatro",
    "cinco",
    "seis",
    "sete",
    "oito",
    "nove",
    "dez",
    "onze",
    "doze",
    "treze",
    "catorze",
    "quinze",
    "dezasseis",
    "dezassete",
    "dezoito",
    "dezanove",
];
const TENS: [&str; 10] = ["", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"];
const HUNDREDS: [&str; 10] = ["", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos", "setecentos", "oitocentos", "novecentos"];

fn below_1000(n: u64) -> String {
    match n {
        0..=19 => UNITS[n as usize].to_owned(),
        20..=99 => {
            let (t, u) = (n / 10, n % 10);
            if u == 0 { TENS[t as usize].to_owned() } else { format!("{} e {}", TENS[t as usize], UNITS[u as usize]) }
        }
        100 => "cem".to_owned(),
        _ => {
            let (h, r) = (n / 100, n % 100);
            if r == 0 { HUNDREDS[h as usize].to_owned() } else { format!("{} e {}", HUNDREDS[h as usize], below_1000(r)) }
        }
    }
}

/// A whole number in Portuguese words (European usage).
pub fn number_in_words(n: u64) -> String {
    if n < 1000 {
        return below_1000(n);
    }
    let scales: [(u64, &str, &str); 3] = [(1_000_000_000, "mil milhões", "mil milhões"), (1_000_000, "um milhão", "milhões"), (1_000, "mil", "mil")];
    let mut parts = Vec::new();
    let mut rest = n;
    for (value, one, many) in scales {
        let q = rest / value;
        if q > 0 {
            parts.push(match (q, value) {
                (1, _) => one.to_owned(),
                (q, 1_000_000_000) => format!("{} {many}", number_in_words(q)),
                (q, _) => format!("{} {many}", below_1000(q)),
            });
            rest %= value;
        }
    }
    if rest > 0 {
        let joiner = if rest < 100 || rest.is_multiple_of(100) { " e " } else { " " };
        return format!("{}{joiner}{}", parts.join(" "), below_1000(rest));
    }
    parts.join(" ")
}

/// An amount of cents in words: "vinte euros e cinco cêntimos".
pub fn amount_in_words(cents: u64, currency: &Currency) -> String {
    let unit = 10u64.pow(u32::from(currency.minor_digits));
    let (whole, minor) = (cents / unit, cents % unit);
    let (one, many) = if currency.code == "EUR" { ("euro", "euros") } else { (currency.code.as_str(), currency.code.as_str()) };
    let whole_words = format!("{} {}", number_in_words(whole), if whole == 1 { one } else { many });
    if minor == 0 {
        return whole_words;
    }
    let minor_words = format!("{} {}", number_in_words(minor), if minor == 1 { "cêntimo" } else { "cêntimos" });
    if whole == 0 { minor_words } else { format!("{whole_words} e {minor_words}") }
}

/// Interleaved 2 of 5 patterns (narrow = 0, wide = 1) for digits 0–9.
const I2OF5: [[u8; 5]; 10] = [
    [0, 0, 1, 1, 0],
    [1, 0, 0, 0, 1],
    [0, 1, 0, 0, 1],
    [1, 1, 0, 0, 0],
    [0, 0, 1, 0, 1],
    [1, 0, 1, 0, 0],
    [0, 1, 1, 0, 0],
    [0, 0, 0, 1, 1],
    [1, 0, 0, 1, 0],
    [0, 1, 0, 1, 0],
];

/// The validation number as an Interleaved 2 of 5 barcode, in text: `█`
/// bars and spaces, wide elements twice as wide. The 18 digits pair up.
pub fn barcode(digits: &str) -> String {
    let d: Vec<usize> = digits.chars().filter_map(|c| c.to_digit(10)).map(|x| x as usize).collect();
    let mut out = String::from("█ █ "); // start: narrow bar, space, bar, space
    for pair in d.chunks(2) {
        let (a, b) = (pair[0], pair.get(1).copied().unwrap_or(0));
        for (bar, space) in I2OF5[a].iter().zip(&I2OF5[b]) {
            out.push_str(if *bar == 1 { "██" } else { "█" });
            out.push_str(if *space == 1 { "  " } else { " " });
        }
    }
    out.push_str("██ █"); // stop: wide bar, space, bar
    out
}

/// Print (write) a ticket; returns the file.
pub fn print(ticket: &Ticket, currency: &Currency, dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("ticket-{}.txt", ticket.validation));
    let text = format!(
        "BILHETE DE PAGAMENTO / CASHOUT TICKET\nMáquina: {}\nData (UTC): {}\nValor: {}\n       {}\nNúmero de validação: {}\n{}\n",
        ticket.machine_id,
        ticket.issued_utc,
        currency.format(ticket.value),
        amount_in_words(ticket.value, currency),
        ticket.validation,
        barcode(&ticket.validation),
    );
    // Whole or not at all (issue 52): written under a hidden name, then
    // renamed into place, so whatever collects the printed tickets (a
    // printer's spooler, a test) never reads one half-written.
    let partial = dir.join(format!(".ticket-{}.partial", ticket.validation));
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, &path)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_in_portuguese_words() {
        let eur = Currency::default();
        assert_eq!(amount_in_words(100, &eur), "um euro");
        assert_eq!(amount_in_words(2_005, &eur), "vinte euros e cinco cêntimos");
        assert_eq!(amount_in_words(123_456, &eur), "mil duzentos e trinta e quatro euros e cinquenta e seis cêntimos");
        assert_eq!(amount_in_words(100_000, &eur), "mil euros");
        assert_eq!(amount_in_words(200_100, &eur), "dois mil e um euros");
        assert_eq!(amount_in_words(1, &eur), "um cêntimo");
        assert_eq!(number_in_words(1_000_000), "um milhão");
        assert_eq!(number_in_words(2_500_000), "dois milhões quinhentos mil");
    }

    #[test]
    fn barcode_has_the_interleaved_2_of_5_width() {
        // 9 pairs × (5 bars + 5 spaces, 2 wide of each) = 9 × 14 modules + start 4 + stop 4.
        let b = barcode("123456789012345678");
        assert_eq!(b.chars().count(), 9 * 14 + 4 + 4);
    }
}
