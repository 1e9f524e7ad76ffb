import Motion

/// The PlayStation pads' Bluetooth CRC: the checksum covers one HID transaction-header byte that
/// is not in the report (0xA1 input, 0xA2 output, 0xA3 feature) followed by the report bytes
/// (hid-playstation `PS_INPUT_CRC32_SEED`, SDL `VerifyCRC`).
extension CRC32 {
    /// HIDP header byte for input reports (DATA | INPUT).
    public static let inputSeed: UInt8 = 0xA1
    /// HIDP header byte for feature reports (DATA | FEATURE).
    public static let featureSeed: UInt8 = 0xA3

    /// True if bytes `length − 4 ..< length` of `report` hold the CRC (LE) of `seed` + the bytes
    /// before them (`length` defaults to the whole report).
    public static func isValidTrailer(_ report: [UInt8], length: Int? = nil, seed: UInt8) -> Bool {
        let length = length ?? report.count
        guard length > 4, report.count >= length else { return false }
        let end = length - 4
        return checksum(report[0..<end], seed: seed) == report.uint32LE(at: end)
    }
}
