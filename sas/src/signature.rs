//! LP 21's ROM signature (sas.md §5): CRC-16/KERMIT with the host's seed
//! as the initial register, over the cabinet's authenticated images in a
//! fixed order, each image's result seeding the next (the same as one pass
//! over them all). This cabinet's images, in order: the approved program
//! (the executable the manifest lists), then each approved paytable
//! artifact in the manifest's order. The result goes on the wire low byte
//! first. It is computed off the link's thread; the host reads it at a
//! later general poll (a delayed reply).

use std::io::Read;
use std::path::PathBuf;

/// The signature of `images` (their bytes, in order) from `seed`.
pub fn of_images(seed: u16, images: &[&[u8]]) -> u16 {
    images.iter().fold(seed, |register, image| crate::crc::seeded(register, image))
}

/// The signature of the files at `paths`, read in order, from `seed`; an
/// image that cannot be read is an error naming it (no signature is
/// better than a wrong one).
pub fn of_files(seed: u16, paths: &[PathBuf]) -> Result<u16, String> {
    let mut register = seed;
    let mut buf = vec![0u8; 1 << 16];
    for path in paths {
        let mut f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        loop {
            let n = f.read(&mut buf).map_err(|e| format!("{}: {e}", path.display()))?;
            if n == 0 {
                break;
            }
            register = crate::crc::seeded(register, buf.get(..n).unwrap_or_default());
        }
    }
    Ok(register)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chained_images_are_the_digests_figures() {
        // sas.md §2: "IMAGE-A" from 0x1234 gives 0x3616, "IMAGE-B" from
        // there 0xC579, one pass over both the same.
        assert_eq!(of_images(0x1234, &[b"IMAGE-A"]), 0x3616);
        assert_eq!(of_images(0x1234, &[b"IMAGE-A", b"IMAGE-B"]), 0xC579);
        assert_eq!(of_images(0x1234, &[b"IMAGE-AIMAGE-B"]), 0xC579);
    }

    #[test]
    fn files_read_in_chunks_give_the_same_signature() {
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path();
        let big: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let (a, b) = (dir.join("program"), dir.join("paytable"));
        std::fs::write(&a, &big).unwrap();
        std::fs::write(&b, b"IMAGE-B").unwrap();
        assert_eq!(of_files(0xBEEF, &[a.clone(), b.clone()]), Ok(of_images(0xBEEF, &[&big, b"IMAGE-B"])));
        let missing = dir.join("missing");
        assert!(of_files(0, &[a, missing]).unwrap_err().contains("missing"));
    }
}
