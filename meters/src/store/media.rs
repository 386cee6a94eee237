//! Where the two copies of critical memory lie (D-28: "≥ 3 logical copies
//! on ≥ 2 physical devices, or an equivalent journaled store on two
//! media"). Critical memory is a journaled store (SQLite, WAL, every row
//! under the chain's MAC) written to two files; on a floor cabinet those
//! files stand on two physical disks, so that one disk's death loses
//! nothing. The embedded default puts the second copy beside the first
//! (`<db>.second`): right for a lab or an evaluation cabinet, refused on a
//! floor cabinet, which names its second medium (`second_copy:
//! At("/mnt/egm-second/egm.sqlite")`, docs/install.md).
//!
//! A file's medium is read from the kernel, never from the configuration:
//! the device its directory's filesystem stands on (`st_dev`), then in
//! sysfs the disks under it — a partition's disk, a device-mapper or RAID
//! volume's every member (`slaves/`). Two copies are on two media when no
//! disk holds both. A filesystem on no block device (tmpfs, overlay: the
//! copy dies with the power or stands on a device the kernel does not
//! name) and a loop or RAM device (a file or memory, not a disk) are
//! refused: the check cannot see a second medium there.

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why a floor cabinet's two copies are not on two physical media (D-28).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    #[error(
        "a floor cabinet keeps a second copy of critical memory on a second physical disk (D-28): second_copy is Off; name the second medium (`second_copy: At(\"/mnt/egm-second/egm.sqlite\")`)"
    )]
    NoSecondCopy,
    #[error(
        "both copies of critical memory stand on disk {disk} ({first} and {second}): a floor cabinet keeps its second copy on a second physical disk (D-28); mount one and name it (`second_copy: At(…)`)"
    )]
    SameMedium { first: PathBuf, second: PathBuf, disk: String },
    #[error(
        "{path} stands on device {device}, which is no disk the kernel names (a tmpfs, an overlay or another virtual filesystem): a copy of critical memory stands on a physical disk (D-28)"
    )]
    NotADisk { path: PathBuf, device: String },
    #[error("{path} stands on {disk}, a loop or RAM device (a file or memory, not a disk): a copy of critical memory stands on a physical disk (D-28)")]
    Virtual { path: PathBuf, disk: String },
    #[error("the medium of {path} cannot be read: {why}")]
    Unreadable { path: PathBuf, why: String },
}

/// The kernel's device tree, where each block device names its disks.
const SYSFS: &str = "/sys";

/// A floor cabinet's copies: the first at `first`, the second at `second`
/// (None: no second copy), on two physical media.
pub(crate) fn check_copies(first: &Path, second: Option<&Path>) -> Result<(), MediaError> {
    let second = second.ok_or(MediaError::NoSecondCopy)?;
    check_devices(Path::new(SYSFS), (first, device_of(first)?), (second, device_of(second)?))
}

/// The device a file at `path` is written to: its directory's (the file
/// itself may not exist before the first boot).
fn device_of(path: &Path) -> Result<u64, MediaError> {
    let directory = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::metadata(directory).map(|m| m.dev()).map_err(|e| MediaError::Unreadable { path: path.to_owned(), why: format!("{}: {e}", directory.display()) })
}

/// Two copies on the devices given, each resolved to its disks in `sysfs`:
/// refused when a disk holds both.
fn check_devices(sysfs: &Path, first: (&Path, u64), second: (&Path, u64)) -> Result<(), MediaError> {
    let one = disks_of(sysfs, first.0, first.1)?;
    let two = disks_of(sysfs, second.0, second.1)?;
    match one.intersection(&two).next() {
        Some(disk) => Err(MediaError::SameMedium { first: first.0.to_owned(), second: second.0.to_owned(), disk: disk.clone() }),
        None => Ok(()),
    }
}

/// The disks the device `dev` (of the file at `path`) writes to.
fn disks_of(sysfs: &Path, path: &Path, dev: u64) -> Result<BTreeSet<String>, MediaError> {
    let (major, minor) = (major(dev), minor(dev));
    let device = format!("{major}:{minor}");
    let node = sysfs.join("dev/block").join(&device);
    if major == 0 || !node.exists() {
        return Err(MediaError::NotADisk { path: path.to_owned(), device });
    }
    let mut found = BTreeSet::new();
    disks_under(&node, 0, &mut found).map_err(|why| MediaError::Unreadable { path: path.to_owned(), why })?;
    if let Some(disk) = found.iter().find(|d| is_virtual(d)) {
        return Err(MediaError::Virtual { path: path.to_owned(), disk: disk.clone() });
    }
    Ok(found)
}

/// A block device's disks: a volume's members (device mapper, RAID: its
/// `slaves`), a partition's disk, or the device itself.
fn disks_under(node: &Path, depth: u8, found: &mut BTreeSet<String>) -> Result<(), String> {
    // Stacks of volumes are a few deep; a loop in sysfs is a broken tree.
    if depth > 16 {
        return Err(format!("{}: volumes stacked more than 16 deep", node.display()));
    }
    let node = node.canonicalize().map_err(|e| format!("{}: {e}", node.display()))?;
    let mut members: Vec<PathBuf> = match std::fs::read_dir(node.join("slaves")) {
        Ok(entries) => entries.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    members.sort();
    if !members.is_empty() {
        for member in members {
            disks_under(&member, depth + 1, found)?;
        }
        return Ok(());
    }
    if node.join("partition").exists() {
        let disk = node.parent().ok_or_else(|| format!("{}: a partition without its disk", node.display()))?;
        return disks_under(disk, depth + 1, found);
    }
    let name = node.file_name().ok_or_else(|| format!("{}: a device without a name", node.display()))?;
    found.insert(name.to_string_lossy().into_owned());
    Ok(())
}

/// A loop device (a file on some other filesystem) or a RAM disk.
fn is_virtual(disk: &str) -> bool {
    ["loop", "ram", "zram", "brd"].iter().any(|p| disk.strip_prefix(p).is_some_and(|n| n.chars().all(|c| c.is_ascii_digit())))
}

/// Linux's encoding of a device number (glibc's `gnu_dev_major`).
fn major(dev: u64) -> u64 {
    ((dev >> 32) & 0xffff_f000) | ((dev >> 8) & 0x0000_0fff)
}

/// Linux's encoding of a device number (glibc's `gnu_dev_minor`).
fn minor(dev: u64) -> u64 {
    ((dev >> 12) & 0xffff_ff00) | (dev & 0x0000_00ff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A device tree as the kernel lays it out: `dev/block/M:m` links to
    /// the device's folder; a partition's folder lies in its disk's and
    /// holds `partition`; a volume's `slaves/` links to its members.
    struct Tree {
        root: tempfile::TempDir,
    }

    impl Tree {
        fn new() -> Tree {
            let root = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(root.path().join("dev/block")).unwrap();
            Tree { root }
        }
        fn device(&self, number: &str, folder: &str) -> PathBuf {
            let dir = self.root.path().join("devices").join(folder);
            std::fs::create_dir_all(&dir).unwrap();
            symlink(&dir, self.root.path().join("dev/block").join(number)).unwrap();
            dir
        }
        fn partition(&self, number: &str, folder: &str) {
            let dir = self.device(number, folder);
            std::fs::write(dir.join("partition"), "1\n").unwrap();
        }
        fn volume(&self, number: &str, name: &str, members: &[&str]) {
            let dir = self.device(number, name);
            std::fs::create_dir_all(dir.join("slaves")).unwrap();
            for m in members {
                let target = self.root.path().join("devices").join(m);
                symlink(&target, dir.join("slaves").join(Path::new(m).file_name().unwrap())).unwrap();
            }
        }
        fn disks(&self, number: &str) -> Result<BTreeSet<String>, String> {
            let mut found = BTreeSet::new();
            disks_under(&self.root.path().join("dev/block").join(number), 0, &mut found).map(|()| found)
        }
    }

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// Two SATA disks of two partitions and one, an NVMe disk; LVM on the
    /// first disk's second partition, RAID 1 over both disks' first.
    fn two_disks() -> Tree {
        let t = Tree::new();
        t.device("8:0", "sda");
        t.partition("8:1", "sda/sda1");
        t.partition("8:2", "sda/sda2");
        t.device("8:16", "sdb");
        t.partition("8:17", "sdb/sdb1");
        t.device("259:0", "nvme0n1");
        t.volume("253:0", "dm-0", &["sda/sda2"]);
        t.volume("9:0", "md0", &["sda/sda1", "sdb/sdb1"]);
        t
    }

    #[test]
    fn a_devices_disks_are_read_through_partitions_and_volumes() {
        let t = two_disks();
        t.partition("259:1", "nvme0n1/nvme0n1p1");
        // LVM on the RAID.
        t.volume("253:1", "dm-1", &["md0"]);
        assert_eq!(t.disks("8:1"), Ok(set(&["sda"])));
        assert_eq!(t.disks("8:16"), Ok(set(&["sdb"])));
        assert_eq!(t.disks("259:1"), Ok(set(&["nvme0n1"])));
        assert_eq!(t.disks("253:0"), Ok(set(&["sda"])));
        assert_eq!(t.disks("253:1"), Ok(set(&["sda", "sdb"])));
    }

    #[test]
    fn a_loop_or_ram_device_is_no_disk() {
        for name in ["loop0", "loop12", "ram0", "zram1"] {
            assert!(is_virtual(name), "{name}");
        }
        for name in ["sda", "vda", "nvme0n1", "mmcblk0", "loopback", "ramp"] {
            assert!(!is_virtual(name), "{name}");
        }
    }

    /// On this machine, for real: two files in one folder share a disk, and
    /// a copy in memory (tmpfs) is no medium. Either way refused, by name.
    #[test]
    fn copies_beside_each_other_or_in_memory_are_refused() {
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let first = dir.path().join("egm.sqlite");
        let second = dir.path().join("egm.sqlite.second");
        match check_copies(&first, Some(&second)) {
            Err(MediaError::SameMedium { disk, .. }) => assert!(!disk.is_empty()),
            // A build folder on an overlay (a container): no disk to see.
            Err(MediaError::NotADisk { path, .. }) => assert_eq!(path, first),
            other => panic!("two copies in one folder: {other:?}"),
        }
        assert_eq!(check_copies(&first, None), Err(MediaError::NoSecondCopy));
        let memory = Path::new("/dev/shm/egm.sqlite.second");
        if memory.parent().is_some_and(Path::is_dir) {
            match check_copies(&first, Some(memory)) {
                Err(MediaError::NotADisk { path, .. }) => assert!(path == memory || path == first, "{}", path.display()),
                other => panic!("a copy in memory: {other:?}"),
            }
        }
    }

    /// makedev(3) as glibc makes device numbers.
    fn makedev(ma: u64, mi: u64) -> u64 {
        ((ma & 0xffff_f000) << 32) | ((ma & 0x0fff) << 8) | ((mi & 0xffff_ff00) << 12) | (mi & 0xff)
    }

    #[test]
    fn device_numbers_decode_as_the_kernel_encodes_them() {
        for (ma, mi) in [(8, 1), (259, 65_537), (0, 42), (4_096, 300)] {
            let dev = makedev(ma, mi);
            assert_eq!((major(dev), minor(dev)), (ma, mi));
        }
        assert_eq!((major(0x801), minor(0x801)), (8, 1));
    }

    #[test]
    fn copies_pass_on_two_disks_only() {
        let t = two_disks();
        t.device("7:0", "loop0");
        let sysfs = t.root.path();
        let (a, b) = (Path::new("/var/egm.sqlite"), Path::new("/mnt/second/egm.sqlite"));
        let check = |one: (u64, u64), two: (u64, u64)| check_devices(sysfs, (a, makedev(one.0, one.1)), (b, makedev(two.0, two.1)));
        // Two disks, whatever lies between the filesystem and each.
        assert_eq!(check((8, 1), (8, 17)), Ok(()));
        assert_eq!(check((253, 0), (259, 0)), Ok(()));
        // Two partitions, or a volume on a partition, of one disk.
        let same = |disk: &str| Err(MediaError::SameMedium { first: a.into(), second: b.into(), disk: disk.into() });
        assert_eq!(check((8, 1), (8, 2)), same("sda"));
        assert_eq!(check((253, 0), (8, 1)), same("sda"));
        // A RAID over both disks shares each with either.
        assert_eq!(check((9, 0), (8, 17)), same("sdb"));
        // A loop device, a filesystem on no device, a device sysfs lacks.
        assert_eq!(check((8, 1), (7, 0)), Err(MediaError::Virtual { path: b.into(), disk: "loop0".into() }));
        assert_eq!(check((0, 42), (8, 17)), Err(MediaError::NotADisk { path: a.into(), device: "0:42".into() }));
        assert_eq!(check((8, 1), (65, 3)), Err(MediaError::NotADisk { path: b.into(), device: "65:3".into() }));
    }
}
