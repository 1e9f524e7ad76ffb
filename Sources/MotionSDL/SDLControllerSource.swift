import CSDL2
import Foundation
import Motion

/// Gyro and accelerometer of an SDL game controller, with hot-plug, from whichever libSDL2 the
/// loader gives the process: SDL's HIDAPI drivers read DualShock 4, DualSense, Switch Pro and
/// Joy-Cons from hidraw (every SDL 2; INPUT_FACTS §0, §7); SDL ≥ 2.30 also pairs a pad with the
/// kernel's "Motion Sensors" evdev node (`SDLSensorRoute.evdev`, corrected by `SDLEvdevSensorAxes`).
///
/// The source never pumps SDL's events: one owner does (Engine's `SDLEventPump`, the window's
/// loop or a headless command's wait loop) and hands each controller event to `handle(event:)`,
/// on the thread that started the source. Two pumps would split the queue between them.
///
///     let pad = SDLControllerSource()
///     try pad.start(deliver)                                   // on the pumping thread
///     window.events.controllerEvents = { pad.handle(event: $0) }
///
/// Samples are delivered on the thread that calls `handle(event:)`. Removing the controller delivers `.disconnected`; a controller with sensors being added
/// (the same one if its GUID matches, else any) is opened and `.reconnected` follows; one that SDL
/// announced before its sensors were there is held open, or opened again, until they are (`openAdded`).
public final class SDLControllerSource: MotionSource, @unchecked Sendable {
    public struct ControllerDescription: Hashable, Sendable {
        public var index: Int32
        public var name: String
        public var hasGyro: Bool
        public var hasAccelerometer: Bool
        /// Sensor events per second SDL advertises (gyro).
        public var rate: Double?
        /// The node SDL opened (SDL_GameControllerPath): hidraw for HIDAPI, an evdev node otherwise.
        public var path: String?
        public var route: SDLSensorRoute { SDLSensorRoute(joystickPath: path) }
    }

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

    public init(index: Int32? = nil, clock: any MotionClock = MonotonicClock()) {
        preferredIndex = index
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
                                         rate: rate > 0 ? Double(rate) : nil,
                                         path: SDL_GameControllerPath(c).map { String(cString: $0) })
        }
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock()
        self.deliver = deliver
        lock.unlock()
        do {
            try initialise()
            try openFirstController()
        } catch {
            closeController()
            throw error
        }
    }

    /// The SDL the process runs with (SDL_GetVersion, not the headers'), e.g. "SDL 2.26.5".
    public static var versionText: String {
        var v = SDL_version()
        SDL_GetVersion(&v)
        return "SDL \(v.major).\(v.minor).\(v.patch)"
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
        if count > 0 && openOnceSensorsAppear(candidates.filter { $0 < count }, within: 2) { return }
        throw OpenError.noController(count == 0
            ? "SDL sees no game controller (is it connected, and can this user open its hidraw node? see Assets/udev/70-tiltkit.rules)"
            : "none of SDL's \(count) joystick(s) reports both gyro and accelerometer to this SDL "
              + "(\(SDLControllerSource.versionText); before 2.30 SDL reads a pad's sensors only through its HIDAPI driver, "
              + "not the kernel's evdev node; README: 'A newer SDL'): read the pad directly instead, with the hidraw: or evdev: source "
              + "'tiltkit devices --sdl' lists")
    }

    /// SDL's HIDAPI drivers add a pad's sensors only once its first full report arrives (a DualShock 4
    /// over Bluetooth: the first 0x11 report after SDL waited 16 ms for one; SDL_hidapi_ps4.c), and only
    /// to an open controller: the candidates are held open and updated (SDL_GameControllerUpdate reads
    /// the pads and queues their events for the pump's owner, it does not pump) for up to `seconds`.
    private func openOnceSensorsAppear(_ candidates: [Int32], within seconds: Double) -> Bool {
        let held = candidates.compactMap { index in
            SDL_IsGameController(index) == SDL_TRUE ? SDL_GameControllerOpen(index).map { (index, $0) } : nil
        }
        defer { held.forEach { SDL_GameControllerClose($0.1) } }
        guard !held.isEmpty else { return false }
        let deadline = clock.now() + seconds
        while clock.now() < deadline {
            SDL_GameControllerUpdate()
            for (index, c) in held where SDL_GameControllerHasSensor(c, SDL_SENSOR_GYRO) == SDL_TRUE
                && SDL_GameControllerHasSensor(c, SDL_SENSOR_ACCEL) == SDL_TRUE && open(index) {
                return true
            }
            SDL_Delay(10)
        }
        return false
    }

    /// SDL ≥ 2.30 pairs a pad with its "Motion Sensors" node when the pad is opened, from the nodes
    /// it has seen by then (SDL_sysjoystick.c: LINUX_JoystickOpen calls GetSensor, which looks only
    /// in SDL_sensorlist). A plugged pad's driver makes its joystick node first and its motion node a
    /// moment later, and SDL announces the pad as soon as the first appears (MaybeAddDevice, from
    /// inotify or udev), so an open on that event can find no sensor yet and SDL never pairs it
    /// afterwards. On the evdev route the pad is closed and opened again, SDL reading /dev/input's
    /// news in between (SDL_GameControllerUpdate runs its joystick detection), until it has sensors,
    /// for up to `seconds`; sooner given up when the kernel shows no motion node beside it.
    private func openOncePaired(_ index: Int32, joystickNode path: String, within seconds: Double = 2) -> Bool {
        let instance = SDL_JoystickGetDeviceInstanceID(index)
        let start = clock.now()
        while clock.now() < start + seconds {
            SDL_Delay(20)
            SDL_GameControllerUpdate()
            // The index moves when another joystick comes or goes meanwhile.
            guard let current = (0..<SDL_NumJoysticks()).first(where: { SDL_JoystickGetDeviceInstanceID($0) == instance }) else { return false }
            if open(current) { return true }
            if clock.now() > start + 0.5 && SDLEvdevSensorNode(besideJoystickNode: path) == nil { return false }
        }
        return false
    }

    /// A pad SDL announces after a replug, opened as at start: on the evdev route once SDL has paired
    /// its motion node, on HIDAPI once the driver has read the full report that adds its sensors (a
    /// Bluetooth DualShock 4 or DualSense has none at the moment SDL announces it).
    private func openAdded(_ index: Int32) -> Bool {
        if open(index) { return true }
        guard let path = SDL_JoystickPathForIndex(index).map({ String(cString: $0) }) else { return false }
        switch SDLSensorRoute(joystickPath: path) {
        case .evdev: return openOncePaired(index, joystickNode: path)
        case .hidapi: return openOnceSensorsAppear([index], within: 2)
        case .unknown: return false
        }
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
        let path = SDL_GameControllerPath(c).map { String(cString: $0) }
        let route = SDLSensorRoute(joystickPath: path)
        let node = route == .evdev ? path.flatMap { SDLEvdevSensorNode(besideJoystickNode: $0) } : nil
        lock.lock()
        controller = c
        guid = SDL_JoystickGetGUID(joystick)
        events.instanceID = SDL_JoystickInstanceID(joystick)
        events.evdevAxes = node.map { node in
            SDLEvdevSensorAxes(driver: node.driver, resolutions: node.resolutions) { node.currentCounts() }
        }
        let via = node.map { "evdev \($0.path)" } ?? "\(route.label)\(path.map { " \($0)" } ?? "")"
        currentInfo = MotionSourceInfo(name: "\(String(cString: SDL_GameControllerName(c))) (\(Self.versionText), \(via))",
                                       kind: "sdl", sensors: [.accelerometer, .gyroscope], nominalRate: rate > 0 ? Double(rate) : nil)
        lock.unlock()
        return true
    }

    /// Handles one SDL event from the pump's owner.
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
            deliver?(.samples([sample]))
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
            guard sameGUID || preferredIndex == nil, openAdded(index) else { return false }
            deliver?(.reconnected)
        }
        return true
    }

    private static func equal(_ a: SDL_JoystickGUID, _ b: SDL_JoystickGUID) -> Bool {
        withUnsafeBytes(of: a.data) { x in withUnsafeBytes(of: b.data) { y in x.elementsEqual(y) } }
    }

    private func closeController() {
        lock.lock()
        if let c = controller { SDL_GameControllerClose(c) }
        controller = nil
        deliver = nil
        lock.unlock()
        SDL_QuitSubSystem(UInt32(SDL_INIT_GAMECONTROLLER))
    }

    public func stop() { closeController() }
}
