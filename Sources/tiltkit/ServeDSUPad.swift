import DSU
import DSUServer
import Foundation
import Mapper
import MapperDevices

/// A served slot's pad beyond its motion: its gamepad evdev node (the one the kernel's driver makes
/// beside the hidraw or "Motion Sensors" node the motion comes from) read into the slot's buttons,
/// sticks and triggers, its touchpad node (where it has one) into the touches and the touchpad
/// click, and its bus, address and battery from sysfs. Any pad the kernel drives has
/// such a node (hid-playstation, hid-nintendo, hid-steam), so nothing here knows a pad model.
///
///     let pad = DSUSlotPad(sourceKind: "hidraw", sourcePath: "/dev/hidraw3", slot: 0)
///     try server.attach(source, slot: 0, connection: pad.connection ?? .usb, mac: pad.mac)
///     pad.open(into: server)          // again after a replug
///     pad.refreshBattery(of: server)  // now and then
final class DSUSlotPad: @unchecked Sendable {
    let slot: Int
    /// From the HID device's `HID_ID` bus (0003 USB, 0005 Bluetooth); nil when sysfs does not say.
    let connection: DSUSlotInfo.Connection?
    /// The pad's own address (`HID_UNIQ`), so clients know it again between runs.
    let mac: DSUMAC?
    private let physical: PhysicalPad
    private let lock = NSLock()
    private var gamepadPath: String?
    private var touchpad: TouchpadReader?
    private var hadGamepad = false
    /// Until when a HID pad with no gamepad node yet is looked at again: its driver makes the hidraw
    /// node first and its input nodes a moment later, at start as after a replug.
    private let firstLookEnds: Date?
    /// The latest of each node, combined into the slot's input on every change.
    private var controls = PadControls.idle
    private var touch = TouchpadDecoder.State()
    private let sysfsRoot: String

    init(sourceKind: String, sourcePath: String, slot: Int, sysfsRoot: String = "/sys") {
        self.slot = slot
        self.sysfsRoot = sysfsRoot
        physical = PhysicalPad(sourceKind: sourceKind, sourcePath: sourcePath, grab: false)
        let uevent = Self.hidDevice(kind: sourceKind, path: sourcePath, sysfsRoot: sysfsRoot).map { Self.uevent(in: $0) } ?? [:]
        switch uevent["HID_ID"]?.split(separator: ":").first.flatMap({ UInt32($0, radix: 16) }) {
        case 0x03: connection = .usb
        case 0x05: connection = .bluetooth
        default: connection = nil
        }
        mac = uevent["HID_UNIQ"].flatMap { DSUMAC(text: $0) }
        firstLookEnds = sourceKind != "iio" && !uevent.isEmpty ? Date(timeIntervalSinceNow: Self.firstLook) : nil
    }

    /// How long, s, a pad's gamepad node is waited for after the server starts.
    static let firstLook = 10.0

    /// Starts reading the gamepad node into the slot's input; returns its path, nil when the pad
    /// has none (an IMU, a trace) and the slot keeps sending a neutral pad.
    @discardableResult
    func open(into server: DSUServer) -> String? {
        closeTouchpad()
        let opened = physical.open { [weak self, weak server] event in
            guard let self, let server else { return }
            switch event {
            case .controls(let controls, _): self.update(server) { $0.controls = controls }
            case .disconnected, .ended: self.update(server) { $0.controls = .idle }
            }
        }
        // The touchpad is a node of its own beside the gamepad's (hid-playstation's "Touchpad").
        let touchpadNode = opened.gamepad.flatMap { PadEvdevNodes.find(motionSource: "evdev", path: $0, sysfsRoot: sysfsRoot).nodes.first { $0.role == .touchpad } }
        let reader = touchpadNode.flatMap { try? TouchpadReader(path: $0.path) }
        lock.lock()
        gamepadPath = opened.gamepad
        touchpad = reader
        hadGamepad = hadGamepad || opened.gamepad != nil
        lock.unlock()
        reader?.start { [weak self, weak server] state in
            guard let self, let server else { return }
            self.update(server) { $0.touch = state }
        }
        refreshBattery(of: server)
        return opened.gamepad.map { path in reader.map { "\(path) (touchpad \($0.path))" } ?? path }
    }

    /// The pad had a gamepad node but the last `open` found none (a replugged pad whose driver had
    /// not made its input nodes yet when the motion came back: hid-playstation makes hidraw first),
    /// or a HID pad has not shown one since the server started, for `firstLook` seconds.
    var isMissingItsGamepad: Bool {
        lock.lock(); defer { lock.unlock() }
        return gamepadPath == nil && (hadGamepad || firstLookEnds.map { Date() < $0 } ?? false)
    }

    func close() {
        physical.close()
        closeTouchpad()
    }

    private func closeTouchpad() {
        lock.lock(); let reader = touchpad; touchpad = nil; lock.unlock()
        reader?.stop()
    }

    /// Applies one node's change and sends the combined input to the slot, under the lock so the
    /// gamepad's and the touchpad's threads cannot send their inputs out of order.
    private func update(_ server: DSUServer, _ change: (DSUSlotPad) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(self)
        let touches = touch.contacts.prefix(2).map {
            DSUTouch(id: UInt8(truncatingIfNeeded: $0.id), x: UInt16(clamping: $0.x), y: UInt16(clamping: $0.y))
        }
        let input = DSUPadInput(controls: controls, touches: touches, touchpadClicked: touch.clicked)
        server.updateInput(slot: slot) { $0 = input }
    }

    /// Reads the pad's power supply (beside its gamepad node) into the slot's battery byte.
    func refreshBattery(of server: DSUServer) {
        lock.lock(); let gamepad = gamepadPath; lock.unlock()
        guard let gamepad else { return }
        let device = "\(sysfsRoot)/class/input/\((gamepad as NSString).lastPathComponent)/device/device/power_supply"
        guard let supply = try? FileManager.default.contentsOfDirectory(atPath: device).sorted().first else { return }
        func read(_ name: String) -> String? {
            (try? String(contentsOfFile: "\(device)/\(supply)/\(name)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        server.setBattery(DSUSlotInfo.battery(status: read("status"), capacityPercent: read("capacity").flatMap { Int($0) },
                                              capacityLevel: read("capacity_level")), slot: slot)
    }

    /// The sysfs directory of the HID device behind a motion source's node.
    private static func hidDevice(kind: String, path: String, sysfsRoot: String) -> String? {
        let node = (path as NSString).lastPathComponent
        switch kind {
        case "hidraw": return "\(sysfsRoot)/class/hidraw/\(node)/device"
        case "evdev": return "\(sysfsRoot)/class/input/\(node)/device/device"
        default: return nil
        }
    }

    private static func uevent(in directory: String) -> [String: String] {
        let text = (try? String(contentsOfFile: "\(directory)/uevent", encoding: .utf8)) ?? ""
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { values[kv[0]] = kv[1] }
        }
        return values
    }
}
