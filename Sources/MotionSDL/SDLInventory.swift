import CSDL2

/// What SDL sees, for `tiltkit doctor`: the linked library's version and each game controller with
/// the sensors SDL reports for it. Only the joystick and game-controller subsystems are started
/// (no video, so it runs without a display), and quit again.
///
///     let seen = SDLInventory.take()
///     print(seen.linkedVersion, seen.controllers.filter(\.hasGyro).count)
public struct SDLInventory: Sendable {
    /// The linked library's version, e.g. "2.26.5" (SDL_GetVersion, not the headers').
    public var linkedVersion: String
    /// SDL_GetError's text when the subsystems would not start; nil when they did.
    public var initError: String?
    public var controllers: [SDLControllerSource.ControllerDescription]

    public static func take() -> SDLInventory {
        var v = SDL_version()
        SDL_GetVersion(&v)
        let version = "\(v.major).\(v.minor).\(v.patch)"
        // As the sources do: a headless process is never "in the foreground" for SDL.
        SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1")
        let subsystems = UInt32(SDL_INIT_JOYSTICK | SDL_INIT_GAMECONTROLLER)
        guard SDL_InitSubSystem(subsystems) == 0 else {
            return SDLInventory(linkedVersion: version, initError: String(cString: SDL_GetError()), controllers: [])
        }
        defer { SDL_QuitSubSystem(subsystems) }
        return SDLInventory(linkedVersion: version, initError: nil, controllers: SDLControllerSource.listControllers())
    }
}
