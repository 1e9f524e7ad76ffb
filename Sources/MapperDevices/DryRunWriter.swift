import CLinuxInput
import Foundation
import Mapper
import MotionDevices

/// `tiltkit map --dry-run`: the events the virtual devices would receive, one line per step that
/// sends any, made by the same encoders as the real devices:
///
///     0.1240 mouse REL_X -3 REL_Y 2 | pad BTN_A 1 ABS_X 16384
public final class DryRunWriter: MapperOutputWriter {
    private let mouseEvents = RecordingSink()
    private let padEvents = RecordingSink()
    private let mouse: VirtualMouse
    private let pad: VirtualGamepad
    private let emit: (String) -> Void

    public init(emit: @escaping (String) -> Void) {
        mouse = VirtualMouse(sink: mouseEvents)
        pad = VirtualGamepad(sink: padEvents)
        self.emit = emit
    }

    public func write(_ output: MapperOutput, time: Double) throws(UInputError) -> WriteCounts {
        var counts = WriteCounts()
        counts.mouseEvents = try mouse.write(output)
        counts.mouseCounts = Int(output.mouseX.magnitude) + Int(output.mouseY.magnitude)
        counts.padEvents = try pad.write(output.pad)
        guard counts.sentAnything else { return counts }
        var parts: [String] = []
        if counts.mouseEvents > 0 { parts.append("mouse " + Self.text(mouseEvents.take())) }
        if counts.padEvents > 0 { parts.append("pad " + Self.text(padEvents.take())) }
        emit(String(format: "%.4f ", time) + parts.joined(separator: " | "))
        return counts
    }

    static func text(_ events: [InputEvent]) -> String {
        events.filter { !$0.isSyn }.map { "\(name($0)) \($0.value)" }.joined(separator: " ")
    }

    /// linux/input-event-codes.h's names for the codes the virtual devices use.
    static func name(_ event: InputEvent) -> String {
        let code = Int32(event.code)
        switch Int32(event.type) {
        case EV_REL:
            return [REL_X: "REL_X", REL_Y: "REL_Y", REL_WHEEL: "REL_WHEEL", REL_WHEEL_HI_RES: "REL_WHEEL_HI_RES"][code] ?? "REL_\(code)"
        case EV_ABS:
            return [ABS_X: "ABS_X", ABS_Y: "ABS_Y", ABS_Z: "ABS_Z", ABS_RX: "ABS_RX", ABS_RY: "ABS_RY", ABS_RZ: "ABS_RZ",
                    ABS_HAT0X: "ABS_HAT0X", ABS_HAT0Y: "ABS_HAT0Y"][code] ?? "ABS_\(code)"
        case EV_KEY:
            let names: [Int32: String] = [
                BTN_LEFT: "BTN_LEFT", BTN_RIGHT: "BTN_RIGHT", BTN_MIDDLE: "BTN_MIDDLE", BTN_SIDE: "BTN_SIDE", BTN_EXTRA: "BTN_EXTRA",
                BTN_A: "BTN_A", BTN_B: "BTN_B", BTN_X: "BTN_X", BTN_Y: "BTN_Y", BTN_TL: "BTN_TL", BTN_TR: "BTN_TR",
                BTN_SELECT: "BTN_SELECT", BTN_START: "BTN_START", BTN_MODE: "BTN_MODE", BTN_THUMBL: "BTN_THUMBL", BTN_THUMBR: "BTN_THUMBR",
            ]
            return names[code] ?? String(format: "KEY_0x%x", code)
        default:
            return "\(event.type):\(event.code)"
        }
    }
}

/// Keeps what a device was sent, for the dry run and the tests.
public final class RecordingSink: InputEventSink {
    public private(set) var batches: [[InputEvent]] = []
    public init() {}
    public func write(_ events: [InputEvent]) throws(UInputError) { batches.append(events) }
    /// Every event since the last take, in order.
    public func take() -> [InputEvent] {
        defer { batches.removeAll() }
        return batches.flatMap { $0 }
    }
}
