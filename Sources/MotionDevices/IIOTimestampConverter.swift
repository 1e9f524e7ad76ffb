#if canImport(Glibc)
import Glibc
#endif

/// Puts an IIO buffer's `in_timestamp` on the host's monotonic clock, the one every Tiltkit
/// source stamps with.
///
/// The kernel stamps scans on `current_timestamp_clock`: realtime by default (the source asks for
/// monotonic, but may not be allowed to write it), any POSIX clock a user chose. Such a stamp is
/// the measurement time itself, far better than the read time when scans queue up in the buffer,
/// so it is converted (device time − (that clock now − monotonic now)) rather than replaced. What
/// cannot be converted — no stamp (hid-sensor-magn-3d), a stamp that does not move
/// (hid-sensor-press) or goes backwards, one far from now on its clock — is stamped by
/// `SensorTimestamper` from its arrival. The result is strictly increasing.
public struct IIOTimestampConverter: Sendable {
    /// How old a converted stamp may be and still be believed, s: a full buffer (1024 scans) at
    /// 200 Hz is about 5 s behind.
    public static let maximumAge = 10.0
    /// How far into the future a converted stamp may be (clock offsets are read a little after
    /// the kernel stamped).
    public static let maximumLead = 0.05

    /// The kernel's `current_timestamp_clock` value, lower case (nil: unknown, treated as realtime,
    /// the kernel's default).
    public let clockName: String?
    private var fallback = SensorTimestamper(clock: nil)
    private var lastDevice: Double?
    private var last: Double?

    public init(clockName: String?) { self.clockName = clockName }

    /// Seconds to subtract from a stamp on `clockName` to get monotonic time, now; nil for an
    /// unknown clock name.
    public static func offset(ofClockNamed name: String?) -> Double? {
        let ids: [String: clockid_t] = ["realtime": CLOCK_REALTIME, "monotonic": CLOCK_MONOTONIC,
                                        "monotonic_raw": CLOCK_MONOTONIC_RAW, "realtime_coarse": CLOCK_REALTIME_COARSE,
                                        "monotonic_coarse": CLOCK_MONOTONIC_COARSE, "boottime": CLOCK_BOOTTIME,
                                        "tai": CLOCK_TAI]
        guard let id = ids[name ?? "realtime"] else { return nil }
        func now(_ clock: clockid_t) -> Double {
            var ts = timespec()
            clock_gettime(clock, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        }
        return now(id) - now(CLOCK_MONOTONIC)
    }

    /// The monotonic time of a scan stamped `deviceSeconds` (nil: no stamp) that arrived at
    /// `hostTime`, with the device clock `offset` seconds ahead of monotonic (nil: unknown).
    public mutating func time(deviceSeconds: Double?, hostTime: Double, offset: Double?) -> Double {
        defer { if let deviceSeconds { lastDevice = deviceSeconds } }
        var t: Double
        if let device = deviceSeconds, let offset, device > (lastDevice ?? -.infinity),
           case let converted = device - offset,
           converted <= hostTime + Self.maximumLead, hostTime - converted <= Self.maximumAge {
            t = converted
        } else {
            t = fallback.timestamp(deviceSeconds: deviceSeconds, hostTime: hostTime)
        }
        if let last, t <= last { t = last + 1e-6 }
        last = t
        return t
    }

    /// Forget the history (the device came back).
    public mutating func reset() {
        fallback.reset()
        lastDevice = nil
        last = nil
    }
}
