import Foundation
import Testing
@testable import Motion

/// `DeviceMotion.heading` where fusion leaves it to the attitude (north-referenced frames: X north,
/// Y west, Z up): the compass direction of the device's top edge, or of its back when it stands upright.
@Suite struct DeviceMotionHeadingTests {
    static func motion(_ q: Quaternion) -> DeviceMotion {
        var m = DeviceMotion()
        m.attitude = Attitude(quaternion: q)
        m.headingFromAttitude = true
        return m
    }

    @Test func aFlatDeviceHeadsWhereItsTopEdgePoints() {
        // Identity: the top edge (+y) points west, 270°; turning the device by ψ counterclockwise
        // (seen from above) turns its heading by ψ the other way round the compass.
        for yawDegrees in [0.0, 30, 90, 135, 200, 269, 300] {
            let m = Self.motion(Quaternion(axis: Vector3(0, 0, 1), angle: yawDegrees * .pi / 180))
            let expected = (270 - yawDegrees + 360).truncatingRemainder(dividingBy: 360)
            #expect(abs(m.heading - expected) < 1e-9, "yaw \(yawDegrees)°: heading \(m.heading)°")
        }
    }

    @Test func anUprightDeviceHeadsWhereItsBackFaces() {
        // Top edge straight up (rotated +90° about the reference X axis): the back (−z) faces west.
        let upright = Self.motion(Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2))
        #expect(abs(upright.heading - 270) < 1e-9)
        // ... and turned about the vertical by 90° counterclockwise, the back faces south.
        let turned = Self.motion(Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2) * Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2))
        #expect(abs(turned.heading - 180) < 1e-9)
    }

    @Test func aHeadingGivenAsAValueReplacesTheAttitudes() {
        var m = Self.motion(Quaternion(axis: Vector3(0, 0, 1), angle: 0.3))
        m.heading = 12
        #expect(!m.headingFromAttitude)
        #expect(abs(m.heading - 12) < 1e-9)
        m.heading = -1
        #expect(m.heading == -1)
    }

    @Test func fusionInANorthFrameLeavesTheHeadingToItsAttitude() throws {
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        var motion = DeviceMotion()
        var headed = false
        for i in 0..<300 {
            let sample = MotionSample(timestamp: Double(i) / 100, acceleration: Vector3(0, 0, -1),
                                      rotationRate: Vector3(0, 0, 0), magneticField: Vector3(0, 20, -40))
            #expect(ahrs.update(sample, into: &motion))
            headed = headed || motion.headingFromAttitude
        }
        #expect(headed && ahrs.flags.headingInitialised)
        // The field's horizontal part along the device's +y: the top edge points (magnetic) north.
        #expect(min(motion.heading, 360 - motion.heading) < 0.01, "heading \(motion.heading)°")
        var arbitrary = AHRS(frame: .xArbitraryCorrectedZVertical)
        let sample = MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 0),
                                  magneticField: Vector3(0, 20, -40))
        #expect(arbitrary.update(sample, into: &motion))
        #expect(!motion.headingFromAttitude && motion.heading == -1)
    }
}
