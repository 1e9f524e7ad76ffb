import Motion

/// The payload `bench pull` publishes: a device-motion value with the producer's sequence number
/// and a checksum over every field, so a consumer can prove each read saw one whole write.
///
///     let p = SequencedMotion(sequence: 7, motion: m)
///     p.isIntact   // false if any field came from a different write
public struct SequencedMotion: Hashable, Sendable, BitwiseCopyable {
    /// 1, 2, 3, … in publishing order; 0 means nothing published yet.
    public var sequence: UInt64
    public var motion: DeviceMotion
    public var checksum: UInt64

    public init(sequence: UInt64, motion: DeviceMotion) {
        self.sequence = sequence
        self.motion = motion
        self.checksum = SequencedMotion.checksum(sequence: sequence, motion: motion)
    }

    /// The value a slot holds before the first publish.
    public static let empty = SequencedMotion(
        sequence: 0,
        motion: DeviceMotion(timestamp: 0, attitude: .identity, rotationRate: .zero, gravity: Vector3(0, 0, -1),
                             userAcceleration: .zero))

    /// True when the checksum matches the fields: the read was not torn.
    @inline(__always) public var isIntact: Bool {
        checksum == SequencedMotion.checksum(sequence: sequence, motion: motion)
    }

    /// FNV-1a style mixing of the sequence number and every field's bit pattern. Not cryptographic;
    /// it only has to change when fields of two different writes are mixed.
    @inline(__always) static func checksum(sequence: UInt64, motion m: DeviceMotion) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ v: UInt64) { h = (h ^ v) &* 0x0000_0100_0000_01b3 }
        @inline(__always) func mix(_ v: Double) { mix(v.bitPattern) }
        @inline(__always) func mix(_ v: Vector3) { mix(v.x); mix(v.y); mix(v.z) }
        mix(sequence)
        mix(m.timestamp)
        let q = m.attitude.quaternion
        mix(q.w); mix(q.x); mix(q.y); mix(q.z)
        mix(m.rotationRate)
        mix(m.gravity)
        mix(m.userAcceleration)
        mix(m.magneticField.field)
        mix(UInt64(bitPattern: Int64(m.magneticField.accuracy.rawValue)))
        mix(m.heading)
        return h
    }
}

/// Checks each pulled payload: torn (checksum mismatch), out of order (sequence went back), new or
/// repeated. The counts are what `bench pull` reports; torn and out-of-order must stay zero.
public struct TornReadDetector: Sendable, Hashable {
    public private(set) var torn: UInt64 = 0
    public private(set) var outOfOrder: UInt64 = 0
    /// Reads that returned a sequence number not seen before.
    public private(set) var fresh: UInt64 = 0
    /// Reads that returned the same sequence as the previous read (the producer had not published).
    public private(set) var repeated: UInt64 = 0
    public private(set) var lastSequence: UInt64 = 0

    public init() {}

    @inline(__always) public mutating func check(_ payload: SequencedMotion) {
        guard payload.isIntact else {
            torn &+= 1
            return
        }
        if payload.sequence > lastSequence {
            fresh &+= 1
            lastSequence = payload.sequence
        } else if payload.sequence == lastSequence {
            repeated &+= 1
        } else {
            outOfOrder &+= 1
        }
    }

    public var reads: UInt64 { torn + outOfOrder + fresh + repeated }
}
