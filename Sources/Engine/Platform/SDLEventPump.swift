import CSDL2

/// The one owner of SDL's event queue: nothing else in Tiltkit calls `SDL_PollEvent` or
/// `SDL_WaitEvent`. Window events go to the app as `WindowEvent`s; game-controller events
/// (added, removed, sensor readings) go, on the same thread, to `controllerEvents`, which an
/// `SDLControllerSource` handles. A window's loop pumps through `Window.pollEvents()`; a
/// headless command that reads a controller pumps with `wait(timeout:)` on the thread that
/// started the source.
///
///     window.events.controllerEvents = { pad.handle(event: $0) }   // before the first frame
public final class SDLEventPump {
    /// Every game-controller event, on the pumping thread.
    public var controllerEvents: ((SDL_Event) -> Void)?

    public init() {}

    /// Drains the queue: the window's events in order (`drawableSize` for resizes), controller
    /// events handed on.
    func poll(drawableSize: () -> PixelSize) -> [WindowEvent] {
        var events: [WindowEvent] = []
        var e = SDL_Event()
        while SDL_PollEvent(&e) != 0 {
            if let event = dispatch(e, drawableSize: drawableSize) { events.append(event) }
        }
        return events
    }

    /// Headless: waits up to `timeout` seconds for one event, then drains the rest, handing
    /// controller events on; window events are dropped (there is no window).
    public func wait(timeout: Double) {
        var e = SDL_Event()
        guard SDL_WaitEventTimeout(&e, Int32(max(0, timeout) * 1000)) != 0 else { return }
        repeat {
            _ = dispatch(e, drawableSize: { PixelSize(width: 0, height: 0) })
        } while SDL_PollEvent(&e) != 0
    }

    private func dispatch(_ e: SDL_Event, drawableSize: () -> PixelSize) -> WindowEvent? {
        switch SDL_EventType(e.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            return .keyDown(Key(code: e.key.keysym.sym))
        case SDL_KEYUP:
            return .keyUp(Key(code: e.key.keysym.sym))
        case SDL_WINDOWEVENT where e.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue):
            return .resized(drawableSize())
        case SDL_CONTROLLERSENSORUPDATE, SDL_CONTROLLERDEVICEADDED, SDL_CONTROLLERDEVICEREMOVED,
             SDL_CONTROLLERDEVICEREMAPPED, SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLERBUTTONUP, SDL_CONTROLLERAXISMOTION:
            controllerEvents?(e)
            return nil
        default:
            return nil
        }
    }
}
