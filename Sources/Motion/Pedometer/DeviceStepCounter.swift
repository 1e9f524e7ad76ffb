/// A device's own step counter, read now and then: `IIOStepCounter` (an IIO device's
/// `in_steps_input`, e.g. the bma400's), as Core Motion reads the motion coprocessor's count.
/// `Pedometer` merges its count with the accelerometer's (`StepCounter.updateDeviceCounter`).
public protocol DeviceStepCounter: AnyObject, Sendable {
    /// The counter now: steps since it began counting; it may restart or wrap (`DeviceStepTally`).
    func read() throws -> Int
}
