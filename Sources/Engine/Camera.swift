import Foundation

/// A perspective camera: a view matrix (world → eye, eye looking down −z with +y up) and the
/// lens. Scenes set `view` from their own rules (an orbit, a device attitude) each frame.
///
///     var camera = Camera()
///     camera.view = Mat4.lookAt(eye: Vec3f(0, -8, 5), target: .zero, up: .unitZ)
///     let mvp = camera.viewProjection(aspect: size.aspect) * model
public struct Camera: Hashable, Sendable {
    public var view: Mat4
    /// Vertical field of view, radians.
    public var fovY: Float
    /// Near and far clip distances, world units.
    public var near: Float
    public var far: Float

    public init(view: Mat4 = .identity, fovY: Float = 50 * .pi / 180, near: Float = 0.1, far: Float = 200) {
        self.view = view
        self.fovY = fovY
        self.near = near
        self.far = far
    }

    public func projection(aspect: Float) -> Mat4 {
        Mat4.perspective(fovY: fovY, aspect: aspect, near: near, far: far)
    }

    public func viewProjection(aspect: Float) -> Mat4 { projection(aspect: aspect) * view }

    /// The eye's position in the world (for specular lighting).
    public var position: Vec3f { view.rigidInverse.translation }
}
