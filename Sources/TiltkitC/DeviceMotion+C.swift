import CTiltkit
import Motion

extension tk_device_motion {
    /// The C view of a sample: tuples for the header's fixed arrays, in its units.
    init(_ m: DeviceMotion) {
        let q = m.attitude.quaternion
        self.init(timestamp: m.timestamp,
                  quaternion: (q.w, q.x, q.y, q.z),
                  gravity: (m.gravity.x, m.gravity.y, m.gravity.z),
                  user_acceleration: (m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z),
                  rotation_rate: (m.rotationRate.x, m.rotationRate.y, m.rotationRate.z),
                  magnetic_field: (m.magneticField.field.x, m.magneticField.field.y, m.magneticField.field.z),
                  magnetic_accuracy: Int32(m.magneticField.accuracy.rawValue),
                  heading: m.heading)
    }
}
