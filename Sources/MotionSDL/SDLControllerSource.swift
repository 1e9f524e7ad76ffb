import CSDL2
import Foundation
import Motion

/// Gyro and accelerometer of an SDL game controller (SDL 2.26: HIDAPI drivers for DualShock 4,
/// DualSense, Switch Pro and Joy-Cons; INPUT_FACTS §0, §7), with hot-plug.
///
/// SDL events must be pumped on the thread that initialised SDL video, so there are two modes:
///
///     // In a windowed app: the frame loop pumps and forwards every event.
///     let pad = SDLControllerSource(pumping: .byApplication)
///     try pad.start(deliver)                 // on the main thread, after SDL_Init(VIDEO)
///     while SDL_PollEvent(&event) != 0 { pad.handle(event: event); … }
///
///     // Headless (`tiltkit record`): the source runs its own SDL event loop on its thread.
///     let pad = SDLControllerSource(pumping: .ownThread)
///
/// With `.byApplication`, events are delivered on the thread that calls `handle(event:)`.
/// Removing the controller delivers `.disconnected`; a controller with sensors being added
/// (the same one if its GUID matches, else any) is opened and `.reconnected` follows.
public final class SDLControllerSource: MotionSource, @unchecked Sendable {
    public enum Pumping: Sendable {
        case byApplication
        case ownThread
    }

    public struct ControllerDescription: Hashable, Sendable {
        public var index: Int32
        public var name: String
        public var hasGyro: Bool
        public var hasAccelerometer: Bool
        /// Sensor events per second SDL advertises (gyro).
        public var rate: Double?
    }

    public let pumping: Pumping
    /// Joystick device index to open; nil = the first controller with gyro and accelerometer.
    public let preferredIndex: Int32?
    /// Guarded by `lock`: set when a controller is opened, on whichever thread pumps SDL.
    private var currentInfo: MotionSourceInfo
    public var info: MotionSourceInfo {
        lock.lock(); defer { lock.unlock() }
        return currentInfo
    }
    private let clock: any MotionClock
    private let lock = NSLock()
    private var events = SDLControllerEvents()
    private var controller: OpaquePointer?
    private var guid: SDL_JoystickGUID?
    private var deliver: (@Sendable (MotionSourceEvent) -> Void)?
    private var thread: Thread?
    private var stopping = false
    private let finished = NSCondition()
    private var running = false

    public init(index: Int32? = nil, pumping: Pumping, clock: any MotionClock = MonotonicClock()) {
        preferredIndex = index
        self.pumping = pumping
        self.clock = clock
        currentInfo = MotionSourceInfo(name: "SDL game controller", kind: "sdl", sensors: [.accelerometer, .gyroscope])
    }

    public enum OpenError: Error, CustomStringConvertible {
        case sdl(String)
        case noController(String)
        public var description: String {
            switch self {
            case .sdl(let message): return "SDL: \(message)"
            case .noController(let message): return message
            }
        }
    }

    /// Game controllers SDL sees now and their sensors (initialises the game-controller subsystem).
    public static func listControllers() -> [ControllerDescription] {
        guard SDL_InitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER)) == 0 else { return [] }
        defer { SDL_QuitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER)) }
        return (0..<SDL_NumJoysticks()).compactMap { index in
            guard SDL_IsGameController(index) == SDL_TRUE, let c = SDL_GameControllerOpen(index) else { return nil }
            defer { SDL_GameControllerClose(c) }
            let rate = SDL_GameControllerGetSensorDataRate(c, SDL_SENSOR_GYRO)
            return ControllerDescription(index: index, name: String(cString: SDL_GameControllerName(c)),
                                         hasGyro: SDL_GameControllerHasSensor(c, SDL_SENSOR_GYRO) == SDL_TRUE,
                                         hasAccelerometer: SDL_GameControllerHasSensor(c, SDL_SENSOR_ACCEL) == SDL_TRUE,
                                         rate: rate > 0 ? Double(rate) : nil)
        }
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock()
        self.deliver = deliver
        lock.unlock()
        switch pumping {
        case .byApplication:
            try initialise()
            try openFirstController()
        case .ownThread:
            // SDL is initialised, pumped and shut down on this one thread.
            let startup = Startup()
            let thread = Thread { [self] in
                var failure: Error?
                do { try initialise(); try openFirstController() } catch { failure = error }
                startup.finish(failure)
                if failure == nil { runLoop() } else { SDL_QuitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER)) }
                finished.lock(); running = false; finished.broadcast(); finished.unlock()
            }
            thread.name = "sdl-controller"
            finished.lock(); running = true; finished.unlock()
            thread.start()
            if let failure = startup.wait() { throw failure }
        }
    }

    private func initialise() throws {
        // Sensor events arrive without a window having focus (tiltkit record is headless).
        SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1")
        guard SDL_InitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER)) == 0 else { throw OpenError.sdl(String(cString: SDL_GetError())) }
    }

    private func openFirstController() throws {
        let count = SDL_NumJoysticks()
        let candidates = preferredIndex.map { [$0] } ?? Array(0..<max(0, count))
        for index in candidates where index < count && open(index) { return }
        throw OpenError.noController(count == 0
            ? "SDL sees no game controller (is it connected, and can this user open its hidraw node? see Assets/udev/70-tiltkit.rules)"
            : "none of SDL's \(count) joystick(s) reports both gyro and accelerometer")
    }

    /// Opens the controller at `index` if it has both sensors and enables them.
    private func open(_ index: Int32) -> Bool {
        guard SDL_IsGameController(index) == SDL_TRUE, let c = SDL_GameControllerOpen(index) else { return false }
        guard SDL_GameControllerHasSensor(c, SDL_SENSOR_GYRO) == SDL_TRUE,
              SDL_GameControllerHasSensor(c, SDL_SENSOR_ACCEL) == SDL_TRUE,
              SDL_GameControllerSetSensorEnabled(c, SDL_SENSOR_GYRO, SDL_TRUE) == 0,
              SDL_GameControllerSetSensorEnabled(c, SDL_SENSOR_ACCEL, SDL_TRUE) == 0 else {
            SDL_GameControllerClose(c)
            return false
        }
        let joystick = SDL_GameControllerGetJoystick(c)
        let rate = SDL_GameControllerGetSensorDataRate(c, SDL_SENSOR_GYRO)
        lock.lock()
        controller = c
        guid = SDL_JoystickGetGUID(joystick)
        events.instanceID = SDL_JoystickInstanceID(joystick)
        currentInfo = MotionSourceInfo(name: "\(String(cString: SDL_GameControllerName(c))) (SDL)", kind: "sdl",
                                sensors: [.accelerometer, .gyroscope], nominalRate: rate > 0 ? Double(rate) : nil)
        lock.unlock()
        return true
    }

    /// Forwards one SDL event (from the application's event loop in `.byApplication` mode).
    /// Returns true if it concerned this source's controller.
    @discardableResult
    public func handle(event: SDL_Event) -> Bool {
        lock.lock()
        let outcome = events.handle(event, hostTime: clock.now())
        let deliver = self.deliver
        lock.unlock()
        switch outcome {
        case .none:
            return false
        case .sample(let sample):
            deliver?(.sample(sample))
        case .removed:
            lock.lock()
            if let c = controller { SDL_GameControllerClose(c) }
            controller = nil
            lock.unlock()
            deliver?(.disconnected(reason: "\(info.name) was disconnected; waiting for it to come back"))
        case .added(let index):
            lock.lock()
            let waiting = controller == nil
            let wanted = guid
            lock.unlock()
            guard waiting else { return false }
            // Prefer the same pad; any pad with sensors will do if it was a different one.
            let sameGUID = wanted.map { Self.equal($0, SDL_JoystickGetDeviceGUID(index)) } ?? true
            guard sameGUID || preferredIndex == nil, open(index) else { return false }
            deliver?(.reconnected)
        }
        return true
    }

    private static func equal(_ a: SDL_JoystickGUID, _ b: SDL_JoystickGUID) -> Bool {
        withUnsafeBytes(of: a.data) { x in withUnsafeBytes(of: b.data) { y in x.elementsEqual(y) } }
    }

    /// Hands the own thread's start-up result back to `start`.
    private final class Startup: @unchecked Sendable {
        private let condition = NSCondition()
        private var done = false
        private var failure: Error?

        func finish(_ failure: Error?) {
            condition.lock(); self.failure = failure; done = true; condition.signal(); condition.unlock()
        }

        func wait() -> Error? {
            condition.lock(); defer { condition.unlock() }
            while !done { condition.wait() }
            return failure
        }
    }

    private func runLoop() {
        var event = SDL_Event()
        while true {
            lock.lock(); let stop = stopping; lock.unlock()
            if stop { break }
            // A short timeout keeps stop() prompt.
            if SDL_WaitEventTimeout(&event, 100) != 0 { handle(event: event) }
        }
        closeController()
    }

    private func closeController() {
        lock.lock()
        if let c = controller { SDL_GameControllerClose(c) }
        controller = nil
        deliver = nil
        lock.unlock()
        SDL_QuitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER))
    }

    public func stop() {
        switch pumping {
        case .byApplication:
            closeController()
        case .ownThread:
            lock.lock(); stopping = true; lock.unlock()
            finished.lock(); while running { finished.wait() }; finished.unlock()
        }
    }
}
