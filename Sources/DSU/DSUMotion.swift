import Motion

/// The motion block of a pad-data response: a timestamp in µs, acceleration in g, angular rate
/// in °/s, in the DSU axis convention (`DSUMotion(sample:timestamp:)` converts).
public struct DSUMotion: Hashable, Sendable {
    public struct Acceleration: Hashable, Sendable {
        public var x: Float, y: Float, z: Float
        public init(x: Float, y: Float, z: Float) { self.x = x; self.y = y; self.z = z }
    }

    public struct Gyroscope: Hashable, Sendable {
        public var pitch: Float, yaw: Float, roll: Float
        public init(pitch: Float, yaw: Float, roll: Float) { self.pitch = pitch; self.yaw = yaw; self.roll = roll }
    }

    /// µs, strictly increasing per slot (clients take dt from it).
    public var timestamp: UInt64
    /// g, gravity's sign: a pad lying flat, face up, reads (0, −1, 0).
    public var acceleration: Acceleration
    /// °/s: pitch up, yaw right, roll right positive (Dolphin's input names).
    public var gyroscope: Gyroscope

    public init(timestamp: UInt64, acceleration: Acceleration, gyroscope: Gyroscope) {
        self.timestamp = timestamp
        self.acceleration = acceleration
        self.gyroscope = gyroscope
    }
}

extension DSUMotion {
    /// A Core Motion sample (`MotionSample`: x right, y toward the top edge — away from the player
    /// for a pad —, z out of the face; g with gravity's sign; rad/s right-handed) in DSU's frame.
    ///
    /// DSU's accelerometer frame is the PlayStation/SDL one (x right, y out of the face, z toward
    /// the player) with gravity's sign: Dolphin's client reads "Accel Up" = −y, "Left" = +x,
    /// "Forward" = +z (`DualShockUDPClient.cpp`), and a pad flat face-up reads (0, −1, 0) g
    /// (PLAY_FACTS: DS4Windows checked with PadTest). So x = x, y = z, z = −y.
    ///
    /// Gyro, °/s: pitch = ω about x (the far edge rising), yaw = −ω about z (turning right, i.e.
    /// clockwise seen from above), roll = ω about y (the right edge going down). Derived from
    /// evdevhook2's DualSense mapping (`src/DeviceTypes.ini`: GyroMapping x+y−z− from the kernel's
    /// PlayStation frame, which `CoreMotionFrame.fromPlayStation` maps to Core Motion) and Dolphin's
    /// names "Gyro Pitch Up", "Gyro Yaw Right", "Gyro Roll Right" for positive values.
    /// evdevhook2's DualShock 4 entry negates pitch instead; the x-io trace's pitch phase (far edge
    /// up, ω_x > 0, then gravity toward the player) decides for pitch-up positive. Not yet checked
    /// in a running Dolphin or Cemu.
    public init(sample: MotionSample, timestamp: UInt64) {
        let a = sample.acceleration
        let w = sample.rotationRate ?? .zero
        let degrees = 180 / Double.pi
        self.init(timestamp: timestamp,
                  acceleration: Acceleration(x: Float(a.x), y: Float(a.z), z: Float(-a.y)),
                  gyroscope: Gyroscope(pitch: Float(w.x * degrees), yaw: Float(-w.z * degrees), roll: Float(w.y * degrees)))
    }
}

/// Turns a slot's sample timestamps (seconds on the source's clock) into DSU's µs, strictly
/// increasing: clients divide by the difference, so a repeated or backward stamp (a replugged pad
/// whose clock restarted, a trace that loops without offset) would give dt ≤ 0 or ≈ 1 µs
/// (InputPlumber issue 715). Such a sample is placed one typical interval after the last and
/// later ones keep their own spacing from there.
public struct DSUTimestamper: Hashable, Sendable {
    private var offset: Double = 0
    private var last: UInt64?
    /// The last positive spacing seen, µs; 10 ms until one is known.
    private var interval: UInt64 = 10_000
    /// How many times the source's clock did not increase and was re-based.
    public private(set) var rebases = 0

    public init() {}

    public mutating func stamp(seconds t: Double) -> UInt64 {
        let micros = t.isFinite ? t * 1_000_000 : 0
        var candidate = micros + offset
        if let last {
            if !(candidate > Double(last)) || candidate >= Double(UInt64.max / 2) {
                offset = Double(last + interval) - micros
                candidate = Double(last + interval)
                rebases += 1
            } else {
                interval = min(max(UInt64(candidate) - last, 1), 1_000_000)
            }
        } else if candidate < 0 {
            offset = -micros  // a clock that starts below zero begins at 0 µs
            candidate = 0
        }
        var stamp = UInt64(max(candidate.rounded(), 0))
        if let last, stamp <= last { stamp = last + 1 }
        last = stamp
        return stamp
    }
}
