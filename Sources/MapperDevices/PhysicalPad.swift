import CLinuxInput
import Foundation
import Mapper
import MotionDevices
#if canImport(Glibc)
import Glibc
#endif

/// The physical pad's evdev side while `tiltkit map` runs: its gamepad node read for buttons and
/// sticks (`PadControlsReader`), and, with `grab`, every node of the pad taken with EVIOCGRAB so a
/// game sees one pad (the virtual one), not two. The motion source's own evdev node is left to the
/// source, which grabs it on its own file (`EvdevMotionSource.Options.exclusive`): a grab from
/// another file would starve the source. Closing (or the process ending) releases everything.
///
///     let pad = PhysicalPad(sourceKind: "hidraw", sourcePath: "/dev/hidraw3", grab: true)
///     let opened = pad.open { event in … }     // again after a replug
///     pad.close()
///
/// A Joy-Con pair (`sourceKind` "joycon-pair", `sourcePath` "LEFT+RIGHT", each a hidraw or IMU
/// evdev node) is two halves with a gamepad node each: both are read, their controls combined
/// (`PadControls.joyConPair`), and every node of both grabbed. A half that goes away reads as
/// released while the other half's controls go on.
///
/// With `controlsFromReports` (a Steam pad: `SteamReportControls`), the controls come from the
/// motion source's own reports and no node is read; every evdev node the pad has is grabbed.
public final class PhysicalPad: @unchecked Sendable {
    /// What `open` found and took.
    public struct Opened: Hashable, Sendable {
        /// The node read for controls, nil when none was found (motion only).
        public var gamepad: String?
        /// Every node grabbed, the gamepad's included.
        public var grabbed: [String] = []
        /// Nodes that could not be opened or grabbed, with why, for the person at the keyboard.
        public var problems: [String] = []
    }

    public let sourceKind: String
    public let sourcePath: String
    public let grab: Bool
    /// The controls come with the motion source's reports: no gamepad node is read.
    public let controlsFromReports: Bool
    public var sysfsRoot = "/sys"
    public var devRoot = "/dev"
    public var calls = SystemCalls.live
    private let lock = NSLock()
    private var readers: [PadControlsReader] = []
    private var grabbedFDs: [Int32] = []
    /// A pair's halves' latest controls, combined on each change.
    private let halves = JoyConHalves()
    /// Each motion node's gamepad node's name and uniq once found (a pair's two), to find it again
    /// after a replug, which may give the pad new node paths.
    private var identities: [Int: (name: String, uniq: String)] = [:]

    public init(sourceKind: String, sourcePath: String, grab: Bool, controlsFromReports: Bool = false) {
        self.sourceKind = sourceKind
        self.sourcePath = sourcePath
        self.grab = grab
        self.controlsFromReports = controlsFromReports
    }

    deinit { close() }

    /// The (kind, path) of each motion node: one, or a Joy-Con pair's two.
    private var motionNodes: [(kind: String, path: String)] {
        guard sourceKind == "joycon-pair" else { return [(sourceKind, sourcePath)] }
        return sourcePath.split(separator: "+").map { path in (path.contains("/input/event") ? "evdev" : "hidraw", String(path)) }
    }

    /// Finds the pad's nodes, starts reading its gamepad node into `deliver` and grabs the rest.
    /// Closes what an earlier `open` held first.
    public func open(_ deliver: @escaping @Sendable (PadControlsReader.Event) -> Void) -> Opened {
        close()
        var opened = Opened()
        let isPair = sourceKind == "joycon-pair"
        var found: [(kind: String, nodes: PadEvdevNodes)] = motionNodes.map { node in
            (node.kind, PadEvdevNodes.find(motionSource: node.kind, path: node.path, sysfsRoot: sysfsRoot, devRoot: devRoot))
        }
        lock.lock(); defer { lock.unlock() }
        for index in found.indices {
            if let identity = identities[index], found[index].nodes.gamepad.map({ $0.name != identity.name || $0.uniq != identity.uniq }) ?? true {
                found[index].nodes = PadEvdevNodes.find(gamepadNamed: identity.name, uniq: identity.uniq, sysfsRoot: sysfsRoot, devRoot: devRoot)
            }
            if let gamepad = found[index].nodes.gamepad { identities[index] = (gamepad.name, gamepad.uniq) }
        }
        halves.reset()
        var gamepads: [String] = []
        for (kind, nodes) in found {
            for node in nodes.nodes {
                if node.role == .gamepad, !controlsFromReports, let reader = startReader(node, isPair: isPair, deliver, &opened) {
                    gamepads.append(node.path)
                    readers.append(reader)
                    continue
                }
                // An evdev source's motion node is the source's to grab (after a replug it may have a new path).
                guard grab, node.role != .gamepad || controlsFromReports, !(kind == "evdev" && node.role == .motion) else { continue }
                let (fd, code) = calls.open(node.path, O_RDONLY | O_NONBLOCK)
                guard fd >= 0 else {
                    opened.problems.append(DeviceError.fromOpen(path: node.path, errno: code, fix: DeviceError.inputFix).description)
                    continue
                }
                if calls.ioctlValue(fd, clinux_eviocgrab(), 1).result == 0 {
                    grabbedFDs.append(fd)
                    opened.grabbed.append(node.path)
                } else {
                    _ = Glibc.close(fd)
                    opened.problems.append("\(node.path): EVIOCGRAB refused (another program holds it)")
                }
            }
        }
        opened.gamepad = gamepads.isEmpty ? nil : gamepads.joined(separator: " and ")
        return opened
    }

    /// Opens and starts one gamepad node's reader; nil (with the problem noted) when it cannot.
    private func startReader(_ node: PadEvdevNodes.Node, isPair: Bool, _ deliver: @escaping @Sendable (PadControlsReader.Event) -> Void,
                             _ opened: inout Opened) -> PadControlsReader? {
        // One pad's gamepad node is read once; a pair reads one per half.
        guard isPair || readers.isEmpty else { return nil }
        do {
            var options = PadControlsReader.Options(grab: grab)
            options.calls = calls
            let reader = try PadControlsReader(path: node.path, options: options)
            if reader.isGrabbed { opened.grabbed.append(node.path) } else if grab { opened.problems.append("\(node.path): EVIOCGRAB refused (another program holds it)") }
            guard isPair, let side = JoyConSide(evdevNodeName: node.name) else {
                reader.start(deliver)
                return reader
            }
            let halves = self.halves
            reader.start { event in
                switch event {
                case .controls(let controls, let time): halves.update(side, controls) { deliver(.controls($0, time: time)) }
                // The other half plays on: this one's buttons read as released.
                case .disconnected, .ended: halves.lost(side) { deliver(.controls($0, time: 0)) }
                }
            }
            return reader
        } catch {
            opened.problems.append(String(describing: error))
            return nil
        }
    }

    /// A Joy-Con pair's half whose gamepad node went away (or was not there at `open`) has one again:
    /// `open` again to read both halves (the motion source says nothing when the half that is not
    /// its motion side comes back).
    public var missingHalfIsBack: Bool {
        guard sourceKind == "joycon-pair" else { return false }
        lock.lock()
        let missing = readers.count < 2 || halves.anyGone
        let known = Array(identities.values)
        lock.unlock()
        // Both halves' gamepad nodes are there again (the returned one by its name and uniq: its path may be new).
        return missing && known.count == 2 && known.allSatisfy { identity in
            PadEvdevNodes.find(gamepadNamed: identity.name, uniq: identity.uniq, sysfsRoot: sysfsRoot, devRoot: devRoot).gamepad != nil
        }
    }

    /// Stops reading and releases every grab.
    public func close() {
        lock.lock()
        let readers = self.readers
        self.readers = []
        let fds = grabbedFDs
        grabbedFDs = []
        lock.unlock()
        for reader in readers { reader.stop() }
        for fd in fds {
            _ = calls.ioctlValue(fd, clinux_eviocgrab(), 0)
            _ = Glibc.close(fd)
        }
    }
}
