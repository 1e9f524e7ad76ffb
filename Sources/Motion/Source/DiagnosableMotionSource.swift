/// A source whose input can go wrong in countable ways (HID reports refused as unknown,
/// truncated or failing their checksum) and says how it is going, for HUDs and logs.
public protocol DiagnosableMotionSource: MotionSource {
    /// One line, e.g. "1204 reports decoded, 1204 samples, 3 with unknown IDs (last: unknown report ID 0x05)".
    var diagnostics: String { get }
}
