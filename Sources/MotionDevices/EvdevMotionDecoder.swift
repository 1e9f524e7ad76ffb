import Motion

/// Turns the events of a kernel "Motion Sensors" / "IMU" evdev node into Core Motion samples.
///
/// Framing: evdev sends only changed axes, then SYN_REPORT; the decoder keeps every axis's last
/// value and emits one sample per SYN_REPORT. Units: value / absinfo resolution = g (ABS_X…Z)
/// or deg/s (ABS_RX…RZ). Time: `MSC_TIMESTAMP` (device µs, u32, wraps) unwrapped and anchored to
/// the event time by `SensorTimestamper` (the event time where the device clock stands still or
/// jumps); nodes without it use the event time. `SYN_DROPPED`: events up to the next
/// SYN_REPORT are discarded and `needsResync` is set so the source re-reads the axes (EVIOCGABS).
/// With a `settlingWindow` (a live node) the first frames after opening are held until the device's
/// latency is known (`SensorTimestamper`): `feed` then returns them together; `flush()` hands over
/// what is held.
public struct EvdevMotionDecoder: Sendable {
    /// Which kernel driver made the node: it fixes the axis frame (INPUT_FACTS §1, §6).
    public enum Driver: String, Sendable, CaseIterable {
        /// hid-playstation / hid-sony: PlayStation frame.
        case playStation
        /// hid-nintendo: Nintendo frame (X toward triggers, Y left, Z up).
        case nintendo
        /// hid-steam (Steam Deck): remapped by the kernel to the PlayStation frame.
        case steamDeck

        /// From the node's name, e.g. "Sony Interactive Entertainment Wireless Controller Motion
        /// Sensors", "Nintendo Switch Pro Controller IMU", "Steam Deck Motion Sensors".
        public init?(nodeName: String) {
            if nodeName.hasPrefix("Steam Deck") && nodeName.hasSuffix("Motion Sensors") { self = .steamDeck }
            else if nodeName.hasSuffix("Motion Sensors") { self = .playStation }
            else if nodeName.hasPrefix("Nintendo") && nodeName.contains("IMU") { self = .nintendo }
            else { return nil }
        }

        /// Resolutions the driver sets (counts per g, counts per deg/s), for nodes whose absinfo
        /// cannot be read (recordings).
        public var defaultResolution: (accel: Int32, gyro: Int32) {
            switch self {
            case .playStation: return (8192, 1024)
            case .nintendo: return (4096, 14247)
            case .steamDeck: return (16384, 16)
            }
        }
    }

    public let driver: Driver
    /// Per ABS_X…ABS_RZ: counts per g (0…2) or per deg/s (3…5).
    public var resolution: [Int32]
    public private(set) var needsResync = false
    public private(set) var droppedFrames = 0
    private var values = [Int32](repeating: 0, count: 6)
    private var frameTimestamp: UInt32?
    private var stamper: SensorTimestamper
    /// Frames the stamper holds while it settles, oldest first, in Core Motion's frame.
    private var held: [(acceleration: Vector3, rotationRate: Vector3)] = []
    private var sawMotion = false

    /// What happened to the device clock behind `MSC_TIMESTAMP`.
    public var clockStatistics: SensorTimestamper.Statistics { stamper.statistics }

    /// `settlingWindow`: seconds to hold the first frames after opening (`SensorTimestamper`).
    public init(driver: Driver, resolution: [Int32]? = nil, settlingWindow: Double = 0) {
        self.driver = driver
        stamper = SensorTimestamper(clock: .microseconds32, settlingWindow: settlingWindow)
        let r = driver.defaultResolution
        self.resolution = resolution ?? [r.accel, r.accel, r.accel, r.gyro, r.gyro, r.gyro]
    }

    /// After SYN_DROPPED: the axes as EVIOCGABS reads them now.
    public mutating func resync(values: [Int32]) {
        for (i, v) in values.prefix(6).enumerated() { self.values[i] = v }
        needsResync = false
    }

    /// Feeds one event; returns the samples it releases: the frame it completes, with any held
    /// before it (none while settling).
    public mutating func feed(_ event: InputEvent) -> [MotionSample] {
        switch (event.type, event.code) {
        case (InputEvent.EV_SYN, InputEvent.SYN_DROPPED):
            needsResync = true
            droppedFrames += 1
            frameTimestamp = nil
            return []
        case (InputEvent.EV_SYN, InputEvent.SYN_REPORT):
            defer { frameTimestamp = nil; sawMotion = false }
            // The frame after a drop is incomplete: skip it; the source resyncs the axes.
            if needsResync { return [] }
            guard sawMotion || frameTimestamp != nil else { return [] }
            return samples(eventTime: event.time)
        case (InputEvent.EV_ABS, InputEvent.motionAxes):
            if !needsResync { values[Int(event.code)] = event.value }
            sawMotion = true
        case (InputEvent.EV_MSC, InputEvent.MSC_TIMESTAMP):
            frameTimestamp = UInt32(bitPattern: event.value)
        default:
            break
        }
        return []
    }

    /// The frames held while the stamper settles, stamped now (the node went away or went quiet).
    public mutating func flush() -> [MotionSample] { release(stamper.flush()) }

    private mutating func release(_ times: [Double]) -> [MotionSample] {
        let samples = zip(held, times).map { MotionSample(timestamp: $1, acceleration: $0.acceleration, rotationRate: $0.rotationRate) }
        held.removeFirst(times.count)
        return samples
    }

    private mutating func samples(eventTime: Double) -> [MotionSample] {
        func axis(_ i: Int) -> Double { resolution[i] != 0 ? Double(values[i]) / Double(resolution[i]) : 0 }
        var accel = Vector3(axis(0), axis(1), axis(2))
        var gyro = Vector3(axis(3), axis(4), axis(5)) * (Double.pi / 180)
        if driver == .nintendo {
            accel = CoreMotionFrame.playStationFromNintendo(accel)
            gyro = CoreMotionFrame.playStationFromNintendo(gyro)
        }
        held.append((CoreMotionFrame.accelerationFromPlayStation(g: accel), CoreMotionFrame.fromPlayStation(gyro)))
        return release(stamper.timestamps(ticks: frameTimestamp, hostTime: eventTime))
    }
}
