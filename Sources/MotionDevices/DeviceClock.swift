/// Unwraps a device's free-running tick counter into seconds since its first reading.
///
/// The pads count in wrapping unsigned ticks (DualShock 4: u16 of 16/3 µs, wrapping every ≈ 349.5 ms;
/// DualSense: u32 of 1/3 µs; evdev `MSC_TIMESTAMP`: u32 µs). Deltas are taken modulo 2^bits, so
/// one wrap between readings is handled; a gap longer than a whole period cannot be seen in the
/// counter, which is why callers also compare against host time.
public struct DeviceClock: Sendable {
    /// Width of the counter in bits (≤ 32).
    public let bits: Int
    /// Seconds per tick.
    public let secondsPerTick: Double
    private var lastTicks: UInt64?
    private var totalTicks: UInt64 = 0

    public init(bits: Int, secondsPerTick: Double) {
        precondition(bits > 0 && bits <= 32)
        self.bits = bits
        self.secondsPerTick = secondsPerTick
    }

    /// DualShock 4 sensor timestamp: u16, 16/3 µs per tick (hid-playstation `ticks*16/3`).
    public static var dualShock4: DeviceClock { DeviceClock(bits: 16, secondsPerTick: 16.0 / 3.0 * 1e-6) }
    /// DualSense sensor timestamp: u32, 1/3 µs per tick (hid-playstation "0.33us unit").
    public static var dualSense: DeviceClock { DeviceClock(bits: 32, secondsPerTick: 1.0 / 3.0 * 1e-6) }
    /// evdev MSC_TIMESTAMP: u32 µs, "allowed to wrap around" (Documentation/input/event-codes.rst).
    public static var microseconds32: DeviceClock { DeviceClock(bits: 32, secondsPerTick: 1e-6) }

    /// The period of the counter in seconds.
    public var wrapPeriod: Double { Double(UInt64(1) << UInt64(bits)) * secondsPerTick }

    /// Seconds since the first reading passed in.
    public mutating func seconds(ticks: UInt32) -> Double {
        let mask = (UInt64(1) << UInt64(bits)) - 1
        let t = UInt64(ticks) & mask
        if let last = lastTicks { totalTicks &+= (t &- last) & mask }
        lastTicks = t
        return Double(totalTicks) * secondsPerTick
    }

    /// Forget the history (after a reconnect: the pad's counter restarted).
    public mutating func reset() { lastTicks = nil; totalTicks = 0 }
}
