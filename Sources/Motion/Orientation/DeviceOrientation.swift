/// The device's physical orientation, named and numbered as UIKit's `UIDeviceOrientation`.
/// Device axes are Core Motion's: x right, y toward the top edge, z out of the screen.
public enum DeviceOrientation: Int, CaseIterable, Hashable, Sendable {
    /// Not yet known (no gravity seen).
    case unknown = 0
    /// Upright, top edge up: gravity ≈ (0, −1, 0).
    case portrait = 1
    /// Upright, top edge down: gravity ≈ (0, +1, 0).
    case portraitUpsideDown = 2
    /// Upright on its side, top edge to the left (UIKit: "home button on the right"): gravity ≈ (−1, 0, 0).
    case landscapeLeft = 3
    /// Upright on its side, top edge to the right (UIKit: "home button on the left"): gravity ≈ (+1, 0, 0).
    case landscapeRight = 4
    /// Flat, screen up: gravity ≈ (0, 0, −1).
    case faceUp = 5
    /// Flat, screen down: gravity ≈ (0, 0, +1).
    case faceDown = 6

    /// As `UIDeviceOrientation.isPortrait`.
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// As `UIDeviceOrientation.isLandscape`.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    /// As `UIDeviceOrientation.isFlat`.
    public var isFlat: Bool { self == .faceUp || self == .faceDown }

    /// Gravity's ideal direction in the device frame for this orientation (unit, g); nil for unknown.
    public var idealGravity: Vector3? {
        switch self {
        case .unknown: nil
        case .portrait: Vector3(0, -1, 0)
        case .portraitUpsideDown: Vector3(0, 1, 0)
        case .landscapeLeft: Vector3(-1, 0, 0)
        case .landscapeRight: Vector3(1, 0, 0)
        case .faceUp: Vector3(0, 0, -1)
        case .faceDown: Vector3(0, 0, 1)
        }
    }
}
