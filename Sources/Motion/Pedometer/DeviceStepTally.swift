/// Steps from successive readings of a device counter: the first reading is the zero; a reading
/// below the last (the device was reset, re-enabled, or its 16- or 32-bit register wrapped) starts
/// counting again from it instead of subtracting into a negative count.
public struct DeviceStepTally: Hashable, Sendable {
    /// Steps since the first reading.
    public private(set) var steps = 0
    private var last: Int?

    public init() {}

    /// Takes a reading; true when the step count changed (or on the first reading, to report 0).
    public mutating func add(_ reading: Int) -> Bool {
        defer { last = reading }
        guard let last else { return true }
        let delta = reading >= last ? reading - last : reading
        steps += delta
        return delta != 0
    }
}
