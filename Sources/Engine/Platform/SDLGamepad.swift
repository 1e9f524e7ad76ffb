import CSDL2

/// What a gamepad holds now, independent of SDL.
public struct GamepadState: Hashable, Sendable {
    /// Left stick (15 % dead zone) plus the d-pad, −1 … 1, positive right.
    public var leanAxis: Float = 0
    /// A/Cross.
    public var south = false
    /// B/Circle or X/Square.
    public var eastOrWest = false
    public var start = false
    /// L1/LB and R1/RB (the aim range: hold left for "gyro off", right fires).
    public var leftShoulder = false
    public var rightShoulder = false

    public init() {}
}

/// The first game controller's buttons and stick through SDL's game-controller API; picks up
/// another controller when it is unplugged. The window's `SDLEventPump` keeps the state current.
public final class SDLGamepad {
    private var controller: OpaquePointer?
    private let available: Bool

    public init() {
        available = SDL_InitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER)) == 0
    }

    deinit {
        if let controller { SDL_GameControllerClose(controller) }
        if available { SDL_QuitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER)) }
    }

    /// The pad's name, nil when none is connected.
    public var name: String? {
        guard let controller, let cName = SDL_GameControllerName(controller) else { return nil }
        return String(cString: cName)
    }

    /// The pad's state now; all released when none is connected.
    public func read() -> GamepadState {
        var state = GamepadState()
        guard available else { return state }
        if let c = controller, SDL_GameControllerGetAttached(c) == SDL_FALSE {
            SDL_GameControllerClose(c)
            controller = nil
        }
        if controller == nil { open() }
        guard let c = controller else { return state }
        func pressed(_ b: SDL_GameControllerButton) -> Bool { SDL_GameControllerGetButton(c, b) != 0 }
        // Stick: a 15 % dead zone, then linear to full lean.
        let raw = Float(SDL_GameControllerGetAxis(c, SDL_CONTROLLER_AXIS_LEFTX)) / 32767
        let stick = abs(raw) < 0.15 ? 0 : (raw - (raw > 0 ? 0.15 : -0.15)) / 0.85
        let pad: Float = pressed(SDL_CONTROLLER_BUTTON_DPAD_LEFT) ? -1 : (pressed(SDL_CONTROLLER_BUTTON_DPAD_RIGHT) ? 1 : 0)
        state.leanAxis = max(-1, min(1, stick + pad))
        state.south = pressed(SDL_CONTROLLER_BUTTON_A)
        state.eastOrWest = pressed(SDL_CONTROLLER_BUTTON_B) || pressed(SDL_CONTROLLER_BUTTON_X)
        state.start = pressed(SDL_CONTROLLER_BUTTON_START)
        state.leftShoulder = pressed(SDL_CONTROLLER_BUTTON_LEFTSHOULDER)
        state.rightShoulder = pressed(SDL_CONTROLLER_BUTTON_RIGHTSHOULDER)
        return state
    }

    private func open() {
        let count = SDL_NumJoysticks()
        guard count > 0 else { return }
        for index in 0..<count where SDL_IsGameController(index) == SDL_TRUE {
            if let c = SDL_GameControllerOpen(index) {
                controller = c
                return
            }
        }
    }
}
