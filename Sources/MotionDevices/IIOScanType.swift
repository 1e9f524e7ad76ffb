/// One channel's storage format in an IIO buffer scan, from `scan_elements/*_type`:
/// `[be|le]:[s|u]bits/storagebits[Xrepeat][>>shift]`, e.g. `le:s16/16>>0`, `be:s12/16>>4`,
/// `le:s64/64>>0` (Documentation/ABI/testing/sysfs-bus-iio; INPUT_FACTS §12).
public struct IIOScanType: Hashable, Sendable {
    public var bigEndian: Bool
    public var signed: Bool
    /// Significant bits after shifting.
    public var realBits: Int
    /// Bits the value occupies in the scan (a multiple of 8).
    public var storageBits: Int
    /// Copies of the element (≥ 1).
    public var repeatCount: Int
    public var shift: Int

    /// Bytes one element takes in the scan (storage × repeat).
    public var storageBytes: Int { storageBits / 8 * repeatCount }

    public init(bigEndian: Bool, signed: Bool, realBits: Int, storageBits: Int, repeatCount: Int = 1, shift: Int = 0) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.realBits = realBits
        self.storageBits = storageBits
        self.repeatCount = repeatCount
        self.shift = shift
    }

    /// The kernel keeps `repeat` in a u8 (`struct iio_scan_type`); the bound also keeps `storageBytes` from overflowing.
    static let maxRepeatCount = 255

    /// Parses the `_type` text; nil if malformed or out of range. Ranges are checked before any
    /// arithmetic: a sysfs file is input, and `16X9223372036854775807` or `>>-4` must not trap.
    public init?(_ text: String) {
        let s = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = s.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        rest = rest.dropFirst()
        var shift = 0
        if let r = rest.range(of: ">>") {
            guard let v = Int(rest[r.upperBound...]), v >= 0 else { return nil }
            shift = v
            rest = rest[..<r.lowerBound]
        }
        var repeatCount = 1
        if let x = rest.firstIndex(of: "X") {
            guard let v = Int(rest[rest.index(after: x)...]), (1...IIOScanType.maxRepeatCount).contains(v) else { return nil }
            repeatCount = v
            rest = rest[..<x]
        }
        let bits = rest.split(separator: "/")
        guard bits.count == 2, let real = Int(bits[0]), let storage = Int(bits[1]),
              (8...64).contains(storage), storage % 8 == 0, (1...storage).contains(real),
              shift <= storage - real else { return nil }
        self.init(bigEndian: parts[0] == "be", signed: sign == "s", realBits: real, storageBits: storage,
                  repeatCount: repeatCount, shift: shift)
    }

    /// Reads the first element at `offset`: byte order, shift, mask, sign extension.
    public func value(in scan: [UInt8], at offset: Int) -> Int64 {
        let n = storageBits / 8
        var raw: UInt64 = 0
        for i in 0..<n {
            let byte = UInt64(scan[offset + (bigEndian ? i : n - 1 - i)])
            raw = raw << 8 | byte
        }
        raw >>= UInt64(shift)
        if realBits < 64 { raw &= (UInt64(1) << UInt64(realBits)) - 1 }
        if signed && realBits < 64 && raw & (UInt64(1) << UInt64(realBits - 1)) != 0 {
            raw |= ~((UInt64(1) << UInt64(realBits)) - 1)
        }
        return Int64(bitPattern: raw)
    }
}

import Foundation
