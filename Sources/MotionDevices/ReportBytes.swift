/// Little-endian field reads on a HID report, as every pad here lays its fields out.
/// Callers check the report length first; these trap on out-of-range offsets like any subscript.
extension Array where Element == UInt8 {
    @inlinable func int16LE(at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(self[offset]) | UInt16(self[offset + 1]) << 8)
    }

    @inlinable func uint16LE(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    @inlinable func uint32LE(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16
            | UInt32(self[offset + 3]) << 24
    }

    /// Three consecutive s16 LE values (x, y, z) starting at `offset`.
    @inlinable func int16Triple(at offset: Int) -> SIMD3<Int32> {
        SIMD3(Int32(int16LE(at: offset)), Int32(int16LE(at: offset + 2)), Int32(int16LE(at: offset + 4)))
    }
}

/// Hex text → bytes, for fixtures and hid-recorder files.
public enum HexBytes {
    /// Parses hex digits, ignoring spaces; nil if any pair is not hex.
    public static func parse(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for c in text.utf8 {
            if c == 0x20 || c == 0x09 { continue }
            guard let nibble = nibble(c) else { return nil }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        return high == nil ? bytes : nil
    }

    public static func parse(_ text: String) -> [UInt8]? { parse(text[...]) }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
