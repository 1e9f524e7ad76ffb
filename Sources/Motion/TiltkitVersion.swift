/// Tiltkit's release, in semantic versioning: the one place it is written. `tiltkit --version`
/// prints it, `scripts/version.sh` reads it for the C library's SONAME and `tiltkit.pc`, and
/// CHANGELOG.md's top entry names it (a test checks all three agree).
///
///     print("Tiltkit \(TiltkitVersion.string)")   // Tiltkit 0.1.0
public enum TiltkitVersion {
    public static let string = "0.1.0"
}
