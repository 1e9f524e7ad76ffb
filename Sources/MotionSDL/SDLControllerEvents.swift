import CSDL2
import Motion

/// What one SDL event means for the controller a source follows: pure, so tests drive it with
/// constructed `SDL_Event`s and no controller.
public struct SDLControllerEvents: Sendable {
    public enum Outcome: Equatable, Sendable {
        case none
        case sample(MotionSample)
        /// Our controller was removed.
        case removed
        /// A controller was added at this device index (maybe ours coming back).
        case added(deviceIndex: Int32)
    }

    /// The `SDL_JoystickID` of the open controller; nil while none is open.
    public var instanceID: SDL_JoystickID?
    public var pairing = SDLSensorPairing()
    /// Set while the controller's sensors come through SDL's evdev route (SDL ≥ 2.30), nil on HIDAPI.
    public var evdevAxes: SDLEvdevSensorAxes? {
        didSet { report = EvdevReport() }
    }
    /// The report being put together on the evdev route: SDL's values for its halves and the node's
    /// counts any zero was filled from. Read late, the node can already hold a later report (the kernel
    /// suite saw a first sample with one report's accelerometer and the one before's gyro); such a
    /// half is dropped, so a sample never mixes two reports.
    private var report = EvdevReport()

    private struct EvdevReport: Sendable {
        var timestamp: UInt64?
        var halves: [(sensor: Int32, data: SIMD3<Float>)] = []
        var fills: [[Int32]] = []
    }

    public init(instanceID: SDL_JoystickID? = nil) { self.instanceID = instanceID }

    public mutating func handle(_ event: SDL_Event, hostTime: Double) -> Outcome {
        switch event.type {
        case SDL_CONTROLLERSENSORUPDATE.rawValue:
            let e = event.csensor
            guard e.which == instanceID else { return .none }
            var data = SDLSensorConversion.values(e)
            if let axes = evdevAxes {
                // Halves of one report share its time; without a sensor clock each stands alone.
                if report.timestamp != e.timestamp_us || e.timestamp_us == 0 { report = EvdevReport(timestamp: e.timestamp_us) }
                let corrected = axes.filling(sensor: e.sensor, data: data)
                report.halves.append((e.sensor, data))
                if let fill = corrected.filledFrom { report.fills.append(fill) }
                // Every fill read the same report (halves at zeros have no value to tell one by),
                // and every value SDL gave is that report's.
                let consistent = report.fills.allSatisfy { $0 == report.fills[0] } && report.fills.allSatisfy { fill in
                    report.halves.allSatisfy { axes.agrees(fill, sensor: $0.sensor, data: $0.data) }
                }
                guard consistent else { return .none }
                data = corrected.values
            }
            let update: (SDLSensorPairing.Sensor, Vector3)
            switch e.sensor {
            case SDL_SENSOR_GYRO.rawValue: update = (.gyro, SDLSensorConversion.rotationRate(data))
            case SDL_SENSOR_ACCEL.rawValue: update = (.accelerometer, SDLSensorConversion.acceleration(data))
            default: return .none  // ACCEL_L/GYRO_L etc. of combined Joy-Cons: the combined pair reports ACCEL/GYRO too.
            }
            return pairing.add(update.0, update.1, timestampMicroseconds: e.timestamp_us, hostTime: hostTime)
                .map { .sample($0) } ?? .none
        case SDL_CONTROLLERDEVICEREMOVED.rawValue:
            guard event.cdevice.which == instanceID else { return .none }
            instanceID = nil
            evdevAxes = nil
            pairing.reset()
            return .removed
        case SDL_CONTROLLERDEVICEADDED.rawValue:
            return .added(deviceIndex: event.cdevice.which)
        default:
            return .none
        }
    }
}
