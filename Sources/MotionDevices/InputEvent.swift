/// `struct input_event` as read from `/dev/input/eventN` on 64-bit Linux: 24 bytes,
/// `struct timeval` (two 64-bit longs), `__u16 type`, `__u16 code`, `__s32 value`
/// (linux/input.h; INPUT_FACTS §6).
public struct InputEvent: Hashable, Sendable {
    public static let size = 24

    // Event types and codes used here (linux/input-event-codes.h).
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_DROPPED: UInt16 = 3
    public static let MSC_TIMESTAMP: UInt16 = 0x05
    /// ABS_X, ABS_Y, ABS_Z = 0…2 (accelerometer on motion nodes); ABS_RX…ABS_RZ = 3…5 (gyro).
    public static let motionAxes: ClosedRange<UInt16> = 0...5
    public static let INPUT_PROP_ACCELEROMETER = 0x06

    /// Event time in seconds (the clock chosen with EVIOCSCLOCKID; realtime by default).
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// Decodes one 24-byte record at `offset`.
    public init(bytes: [UInt8], at offset: Int) {
        func int64(_ o: Int) -> Int64 {
            var v: UInt64 = 0
            for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[offset + o + i]) }
            return Int64(bitPattern: v)
        }
        time = Double(int64(0)) + Double(int64(8)) * 1e-6
        type = bytes.uint16LE(at: offset + 16)
        code = bytes.uint16LE(at: offset + 18)
        value = Int32(bitPattern: bytes.uint32LE(at: offset + 20))
    }

    /// The 24 bytes the kernel would write for this event.
    public var bytes: [UInt8] {
        let seconds = Int64(time.rounded(.down))
        let micros = Int64(((time - Double(seconds)) * 1e6).rounded())
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        return le(seconds) + le(micros) + le(type) + le(code) + le(value)
    }
}
