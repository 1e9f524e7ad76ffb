import CSDL2
import CartGame

/// The fallback gamepad controls through SDL's game-controller API: left stick (or d-pad)
/// leans, A/Cross jumps, B/Circle or X/Square ducks, Start pauses or starts. Opens the first
/// controller and picks up another one when it is unplugged. SDL's event pump (the window's
/// `pollEvents`) keeps the button state current.
public final class CartGamepad {
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

    /// Writes the pad's state into `buttons` (OR-ed with what the keyboard holds).
    public func read(into buttons: inout ButtonInput) {
        guard available else { return }
        if let c = controller, SDL_GameControllerGetAttached(c) == SDL_FALSE {
            SDL_GameControllerClose(c)
            controller = nil
        }
        if controller == nil { open() }
        guard let c = controller else { return }
        func pressed(_ b: SDL_GameControllerButton) -> Bool { SDL_GameControllerGetButton(c, b) != 0 }
        // Stick: a 15 % dead zone, then linear to full lean.
        let raw = Float(SDL_GameControllerGetAxis(c, SDL_CONTROLLER_AXIS_LEFTX)) / 32767
        let stick = abs(raw) < 0.15 ? 0 : (raw - (raw > 0 ? 0.15 : -0.15)) / 0.85
        let pad: Float = pressed(SDL_CONTROLLER_BUTTON_DPAD_LEFT) ? -1 : (pressed(SDL_CONTROLLER_BUTTON_DPAD_RIGHT) ? 1 : 0)
        buttons.leanAxis = max(-1, min(1, buttons.leanAxis + stick + pad))
        buttons.jumpHeld = buttons.jumpHeld || pressed(SDL_CONTROLLER_BUTTON_A)
        buttons.duckHeld = buttons.duckHeld || pressed(SDL_CONTROLLER_BUTTON_B) || pressed(SDL_CONTROLLER_BUTTON_X)
        buttons.pauseHeld = buttons.pauseHeld || pressed(SDL_CONTROLLER_BUTTON_START)
        buttons.startHeld = buttons.startHeld || pressed(SDL_CONTROLLER_BUTTON_START)
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
