import CLinuxInput
import MotionDevices

/// The events a virtual device writes, by kind (codes from linux/input-event-codes.h). The time
/// is left at zero: uinput stamps each event itself as it arrives.
extension InputEvent {
    static func key(_ code: Int32, _ held: Bool) -> InputEvent {
        InputEvent(time: 0, type: UInt16(EV_KEY), code: UInt16(code), value: held ? 1 : 0)
    }

    static func relative(_ code: Int32, _ value: Int32) -> InputEvent {
        InputEvent(time: 0, type: UInt16(EV_REL), code: UInt16(code), value: value)
    }

    static func absolute(_ code: Int32, _ value: Int32) -> InputEvent {
        InputEvent(time: 0, type: UInt16(EV_ABS), code: UInt16(code), value: value)
    }

    static let synReport = InputEvent(time: 0, type: InputEvent.EV_SYN, code: InputEvent.SYN_REPORT, value: 0)

    var isSyn: Bool { type == InputEvent.EV_SYN }
}
