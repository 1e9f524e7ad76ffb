import Engine
import Foundation
import Motion

/// The pure mapping from an attitude to the teapot's model matrix and the camera's view matrix.
///
/// The world is Core Motion's reference frame (z up); the teapot's centre is at the origin and
/// it stands on the ground grid. The eye looks out of the back of the device's screen: eye axes =
/// device axes (x right, y up the screen, z toward the viewer), tilted back by `screenTilt` about
/// x so that a device lying flat shows the teapot from 30° above rather than from straight overhead.
///
///     let rig = TeapotCameraRig()
///     let view = rig.viewMatrix(attitude: motion.attitude, pivot: .object)
public struct TeapotCameraRig: Sendable {
    /// Eye to teapot centre, world units.
    public var distance: Float = 9
    /// Angle between the screen's line of sight and the device's −z axis, radians (60°: a flat
    /// device looks down at 30°).
    public var screenTilt: Float = 60 * .pi / 180
    /// Teapot scale from Newell's units to world units.
    public var teapotScale: Float = 1
    /// Height of the teapot's centre above its base in Newell's units (it spans 0...3.15).
    public static let teapotCentreHeight: Float = 1.575

    public init() {}

    /// World → eye rotation: R = Rx(−tilt) · attitude.rotationMatrix (reference → device).
    public func eyeRotation(_ attitude: Attitude) -> Mat4 {
        Mat4.rotation(axis: .unitX, angle: -screenTilt) * Mat4(attitude.rotationMatrix)
    }

    /// Where the camera-centred pivot keeps the eye: where the object-centred camera sits at the
    /// identity attitude, so both pivots start from the same view.
    public var fixedEyePosition: Vec3f {
        Vec3f(0, -distance * sin(screenTilt), distance * cos(screenTilt))
    }

    /// The view matrix [R | −R·p]: p fixed (camera-centred) or p = Rᵀ·(0, 0, d) on the orbit
    /// (object-centred, so R·p = (0, 0, d) and the teapot stays in the centre).
    public func viewMatrix(attitude: Attitude, pivot: TeapotPivot) -> Mat4 {
        let r = eyeRotation(attitude)
        let p = eyePosition(attitude: attitude, pivot: pivot)
        var view = r
        let t = -r.transformDirection(p)
        view[0, 3] = t.x; view[1, 3] = t.y; view[2, 3] = t.z
        return view
    }

    /// The eye's world position for `pivot`.
    public func eyePosition(attitude: Attitude, pivot: TeapotPivot) -> Vec3f {
        switch pivot {
        case .camera: return fixedEyePosition
        case .object: return eyeRotation(attitude).transposed.transformDirection(Vec3f(0, 0, distance))
        }
    }

    /// The teapot centred on the origin, shifted by `offset` (world units; translation mode).
    public func modelMatrix(offset: Vec3f = .zero) -> Mat4 {
        Mat4.translation(offset) * Mat4.scale(Vec3f(teapotScale, teapotScale, teapotScale))
            * Mat4.translation(Vec3f(0, 0, -Self.teapotCentreHeight))
    }

    /// The height of the ground plane the teapot stands on, world units.
    public var groundHeight: Float { -Self.teapotCentreHeight * teapotScale }
}
