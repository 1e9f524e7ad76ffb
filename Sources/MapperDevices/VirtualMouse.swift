import CLinuxInput
import Mapper
import MotionDevices

/// The virtual mouse `tiltkit map` writes: relative motion in counts, the wheel (REL_WHEEL and
/// its high-resolution twin, 120 per detent as linux/input-event-codes.h says), five buttons.
/// Buttons are sent when they change; motion and wheel whenever non-zero.
///
///     let mouse = try VirtualMouse.create()
///     try mouse.write(output)
public final class VirtualMouse {
    public static let name = "Tiltkit Virtual Mouse"
    static let buttons: [(button: MouseButtons, code: Int32)] = [
        (.left, BTN_LEFT), (.right, BTN_RIGHT), (.middle, BTN_MIDDLE), (.side, BTN_SIDE), (.extra, BTN_EXTRA),
    ]
    public static let layout = UInputDevice.Layout(
        name: name, bus: UInt16(BUS_VIRTUAL), vendor: 0, product: 0, version: 1,
        keys: buttons.map(\.code), relativeAxes: [REL_X, REL_Y, REL_WHEEL, REL_WHEEL_HI_RES])

    private let sink: any InputEventSink
    private var held: MouseButtons = []

    public init(sink: any InputEventSink) { self.sink = sink }

    /// Removes a uinput device (UI_DEV_DESTROY); nothing for other sinks.
    public func destroy() { (sink as? UInputDevice)?.destroy() }

    public static func create(path: String = UInputDevice.defaultPath) throws(UInputError) -> VirtualMouse {
        VirtualMouse(sink: try UInputDevice(layout, path: path))
    }

    /// Sends `output`'s motion, wheel and changed buttons; returns the events sent (SYN_REPORT not counted).
    @discardableResult
    public func write(_ output: MapperOutput) throws(UInputError) -> Int {
        let events = Self.events(output, held: held)
        guard !events.isEmpty else { return 0 }
        try sink.write(events)
        held = output.mouseButtons
        return events.count - 1
    }

    static func events(_ output: MapperOutput, held: MouseButtons) -> [InputEvent] {
        var events: [InputEvent] = []
        if output.mouseX != 0 { events.append(.relative(REL_X, output.mouseX)) }
        if output.mouseY != 0 { events.append(.relative(REL_Y, output.mouseY)) }
        if output.wheel != 0 {
            events.append(.relative(REL_WHEEL, output.wheel))
            events.append(.relative(REL_WHEEL_HI_RES, output.wheel.multipliedReportingOverflow(by: 120).partialValue))
        }
        for (button, code) in buttons where output.mouseButtons.contains(button) != held.contains(button) {
            events.append(.key(code, output.mouseButtons.contains(button)))
        }
        if !events.isEmpty { events.append(.synReport) }
        return events
    }
}
