import Foundation
import Testing
@testable import Motion

@Suite struct AttitudeTests {
    @Test func eulerAnglesRoundTrip() {
        let a = Attitude(roll: 0.3, pitch: -0.4, yaw: 1.2)
        #expect(abs(a.roll - 0.3) < 1e-12)
        #expect(abs(a.pitch + 0.4) < 1e-12)
        #expect(abs(a.yaw - 1.2) < 1e-12)
    }

    @Test func gravityFollowsCoreMotionConventions() {
        let a = Attitude(roll: 0.3, pitch: -0.4, yaw: 1.2)
        let g = a.gravity
        #expect(abs(asin(-g.y) - a.pitch) < 1e-12)
        #expect(abs(atan2(g.x, -g.z) - a.roll) < 1e-12)
        // The rotation matrix maps reference to device: gravity = −(m13, m23, m33).
        let m = a.rotationMatrix
        #expect((Vector3(-m.m13, -m.m23, -m.m33) - g).length < 1e-12)
        #expect((Attitude.identity.gravity - Vector3(0, 0, -1)).length < 1e-15)
    }

    @Test func multiplyByInverseOfItselfIsIdentity() {
        let a = Attitude(roll: 0.5, pitch: 0.2, yaw: -2)
        #expect(a.multiplied(byInverseOf: a).quaternion.angle < 1e-9)
        let b = Attitude(roll: 0.5, pitch: 0.2, yaw: -1)
        // Same roll and pitch, yaw differing by 1 rad: the relative rotation is 1 rad.
        #expect(abs(b.multiplied(byInverseOf: a).quaternion.angle - 1) < 1e-9)
    }
}
