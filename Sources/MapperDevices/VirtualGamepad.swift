import CLinuxInput
import Mapper
import MotionDevices

/// The virtual gamepad `tiltkit map` writes: an Xbox 360 pad as xpad and Steam Input's virtual pad
/// present it (USB 045e:028e, version 0x0110), so SDL's controller database and games take it
/// without configuration. Each write sends only what changed since the last (`XboxPadState`).
///
///     let pad = try VirtualGamepad.create()
///     try pad.write(output.pad)
public final class VirtualGamepad {
    public static let name = "Tiltkit Virtual Gamepad"
    /// The ids of xpad's Microsoft X-Box 360 pad, as SDL's gamecontrollerdb GUID 030000005e0400008e02000010010000 has them.
    public static let layout = UInputDevice.Layout(
        name: name, bus: UInt16(BUS_USB), vendor: 0x045E, product: 0x028E, version: 0x0110,
        keys: XboxPadState.buttons.map(\.code),
        absoluteAxes: XboxPadState(.idle).axes.map { axis in
            let range = axis.code == ABS_Z || axis.code == ABS_RZ ? XboxPadState.triggerRange
                : axis.code == ABS_HAT0X || axis.code == ABS_HAT0Y ? -1...1 : XboxPadState.stickRange
            return .init(code: axis.code, minimum: range.lowerBound, maximum: range.upperBound)
        })

    private let sink: any InputEventSink
    /// What the device reads now: a new uinput device reads zero everywhere, which is the idle pad.
    private var state = XboxPadState(.idle)

    public init(sink: any InputEventSink) { self.sink = sink }

    /// Removes a uinput device (UI_DEV_DESTROY); nothing for other sinks.
    public func destroy() { (sink as? UInputDevice)?.destroy() }

    public static func create(path: String = UInputDevice.defaultPath) throws(UInputError) -> VirtualGamepad {
        VirtualGamepad(sink: try UInputDevice(layout, path: path))
    }

    /// Sends what differs from the last write; returns the events sent (SYN_REPORT not counted).
    @discardableResult
    public func write(_ pad: PadControls) throws(UInputError) -> Int {
        let next = XboxPadState(pad)
        let events = next.events(from: state)
        guard !events.isEmpty else { return 0 }
        try sink.write(events)
        state = next
        return events.count - 1
    }
}
