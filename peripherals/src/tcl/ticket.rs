//! The cash-out ticket as the printer lays it out (issue 70, M-25 g):
//! template `0`, loaded into the printer when the cabinet is installed, one
//! region per field in the order of [`REGIONS`]. The validation number's
//! region prints it in figures and, as an Interleaved 2 of 5 barcode, the
//! barcode region (the printer draws the bars and their check).
//!
//! A ticket printed again because the printer may already have printed it
//! (it lost power with the ticket on its way out) says so: `DUPLICADO` in
//! its last region, the same validation number — the floor and the core
//! redeem a validation number once, whichever paper carries it.

use super::message::{MessageError, Print};
pub use crate::printer::Ticket;

/// The template the printer holds for the cabinet's tickets.
pub const TEMPLATE: char = '0';

/// The template's regions, in order.
pub const REGIONS: [&str; 10] = ["title", "validation number", "barcode", "amount", "amount in words", "machine", "date", "time", "expiry", "copy"];

/// What the copy region says of a ticket printed again.
pub const DUPLICATE: &str = "DUPLICADO";

impl Ticket {
    /// The print of this ticket; `again` when the printer may already
    /// have printed it.
    pub fn print(&self, again: bool) -> Result<Print, MessageError> {
        if self.validation.len() != 18 || !self.validation.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MessageError::Field { index: 1, field: self.validation.clone(), reason: "a validation number is 18 digits" });
        }
        let v = &self.validation;
        let grouped = format!("{}-{}-{}-{}-{}", &v[..2], &v[2..6], &v[6..10], &v[10..14], &v[14..]);
        let fields = [
            "BILHETE DE PAGAMENTO",
            grouped.as_str(),
            v.as_str(),
            &printable(&self.amount),
            &printable(&self.amount_in_words),
            &printable(&self.machine),
            &self.date,
            &self.time,
            &printable(&self.expiry),
            if again { DUPLICATE } else { "" },
        ];
        Print::new(TEMPLATE, fields.iter().map(|f| (*f).to_owned()).collect())
    }
}

/// `text` in the printer's ASCII: Portuguese letters without their
/// accents, upper case kept, `€` as `EUR`, anything else unprintable as
/// `?` (a ticket's text is the cabinet's own, never the player's).
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let plain = match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => "a",
            'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => "A",
            'é' | 'è' | 'ê' | 'ë' => "e",
            'É' | 'È' | 'Ê' | 'Ë' => "E",
            'í' | 'ì' | 'î' | 'ï' => "i",
            'Í' | 'Ì' | 'Î' | 'Ï' => "I",
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => "o",
            'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' => "O",
            'ú' | 'ù' | 'û' | 'ü' => "u",
            'Ú' | 'Ù' | 'Û' | 'Ü' => "U",
            'ç' => "c",
            'Ç' => "C",
            '€' => "EUR",
            '|' | '^' | '*' => "/",
            c if (' '..='~').contains(&c) => {
                out.push(c);
                continue;
            }
            _ => "?",
        };
        out.push_str(plain);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket() -> Ticket {
        Ticket {
            validation: "001234567890123456".into(),
            amount: "20,05 €".into(),
            amount_in_words: "vinte euros e cinco cêntimos".into(),
            machine: "EGM-0001".into(),
            date: "2026-11-29".into(),
            time: "17:40:00".into(),
            expiry: "válido 30 dias".into(),
        }
    }

    #[test]
    fn a_ticket_fills_every_region_in_order() {
        let p = ticket().print(false).unwrap();
        assert_eq!(p.template, '0');
        assert_eq!(p.fields.len(), REGIONS.len());
        assert_eq!(
            p.fields,
            [
                "BILHETE DE PAGAMENTO",
                "00-1234-5678-9012-3456",
                "001234567890123456",
                "20,05 EUR",
                "vinte euros e cinco centimos",
                "EGM-0001",
                "2026-11-29",
                "17:40:00",
                "valido 30 dias",
                ""
            ]
        );
        assert_eq!(ticket().print(true).unwrap().fields[9], "DUPLICADO");
    }

    #[test]
    fn a_validation_number_that_is_not_18_digits_is_refused() {
        for v in ["00123456789012345", "0012345678901234567", "00123456789012345x"] {
            let t = Ticket { validation: v.into(), ..ticket() };
            assert!(t.print(false).unwrap_err().to_string().contains("18 digits"), "{v}");
        }
    }
}
