import CLinuxInput
import Foundation
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
    public var sysfsRoot = "/sys"
    public var devRoot = "/dev"
    public var calls = SystemCalls.live
    private let lock = NSLock()
    private var reader: PadControlsReader?
    private var grabbedFDs: [Int32] = []
    /// The gamepad node's name and uniq once found, to find the pad again after a replug.
    private var identity: (name: String, uniq: String)?

    public init(sourceKind: String, sourcePath: String, grab: Bool) {
        self.sourceKind = sourceKind
        self.sourcePath = sourcePath
        self.grab = grab
    }

    deinit { close() }

    /// Finds the pad's nodes, starts reading its gamepad node into `deliver` and grabs the rest.
    /// Closes what an earlier `open` held first.
    public func open(_ deliver: @escaping @Sendable (PadControlsReader.Event) -> Void) -> Opened {
        close()
        var opened = Opened()
        var nodes = PadEvdevNodes.find(motionSource: sourceKind, path: sourcePath, sysfsRoot: sysfsRoot, devRoot: devRoot)
        lock.lock(); defer { lock.unlock() }
        if let identity, nodes.gamepad.map({ $0.name != identity.name || $0.uniq != identity.uniq }) ?? true {
            nodes = PadEvdevNodes.find(gamepadNamed: identity.name, uniq: identity.uniq, sysfsRoot: sysfsRoot, devRoot: devRoot)
        }
        if let gamepad = nodes.gamepad { identity = (gamepad.name, gamepad.uniq) }
        for node in nodes.nodes {
            if node.role == .gamepad, reader == nil {
                do {
                    var options = PadControlsReader.Options(grab: grab)
                    options.calls = calls
                    let reader = try PadControlsReader(path: node.path, options: options)
                    opened.gamepad = node.path
                    if reader.isGrabbed { opened.grabbed.append(node.path) } else if grab { opened.problems.append("\(node.path): EVIOCGRAB refused (another program holds it)") }
                    reader.start(deliver)
                    self.reader = reader
                } catch {
                    opened.problems.append(String(describing: error))
                }
                continue
            }
            // An evdev source's motion node is the source's to grab (after a replug it may have a new path).
            guard grab, !(sourceKind == "evdev" && node.role == .motion) else { continue }
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
        return opened
    }

    /// Stops reading and releases every grab.
    public func close() {
        lock.lock()
        let reader = self.reader
        self.reader = nil
        let fds = grabbedFDs
        grabbedFDs = []
        lock.unlock()
        reader?.stop()
        for fd in fds {
            _ = calls.ioctlValue(fd, clinux_eviocgrab(), 0)
            _ = Glibc.close(fd)
        }
    }
}
