/// CRC-32 (zlib/IEEE 802.3, reflected polynomial 0xEDB88320) as the PlayStation pads use it over
/// Bluetooth: the checksum covers one HID transaction-header byte that is not in the report
/// (0xA1 input, 0xA2 output, 0xA3 feature) followed by the report bytes
/// (hid-playstation `PS_INPUT_CRC32_SEED`, SDL `VerifyCRC`).
public enum CRC32 {
    /// HIDP header byte for input reports (DATA | INPUT).
    public static let inputSeed: UInt8 = 0xA1
    /// HIDP header byte for feature reports (DATA | FEATURE).
    public static let featureSeed: UInt8 = 0xA3

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func checksum<C: Collection>(_ bytes: C, seed: UInt8? = nil) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        if let seed { crc = table[Int((crc ^ UInt32(seed)) & 0xFF)] ^ (crc >> 8) }
        for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// True if bytes `length − 4 ..< length` of `report` hold the CRC (LE) of `seed` + the bytes
    /// before them (`length` defaults to the whole report).
    public static func isValidTrailer(_ report: [UInt8], length: Int? = nil, seed: UInt8) -> Bool {
        let length = length ?? report.count
        guard length > 4, report.count >= length else { return false }
        let end = length - 4
        return checksum(report[0..<end], seed: seed) == report.uint32LE(at: end)
    }
}
