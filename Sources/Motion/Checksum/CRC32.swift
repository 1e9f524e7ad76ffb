/// CRC-32 (zlib/IEEE 802.3, reflected polynomial 0xEDB88320, initial value and final XOR
/// 0xFFFFFFFF): the checksum of the PlayStation pads' Bluetooth reports and of every DSU packet.
/// Check value: `checksum("123456789".utf8) == 0xCBF43926`.
///
///     let crc = CRC32.checksum(packet)             // a DSU packet with its CRC field zeroed
///     let bt = CRC32.checksum(report, seed: 0xA1)  // one byte before the report, as the pads do
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC of `seed` (if any, as one byte before them) followed by `bytes`.
    public static func checksum<C: Collection>(_ bytes: C, seed: UInt8? = nil) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        if let seed { crc = table[Int((crc ^ UInt32(seed)) & 0xFF)] ^ (crc >> 8) }
        for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
