import CLinuxInput
import Mapper
import MotionDevices

/// The virtual gamepad's controls in the units of the Xbox 360 pad the kernel's xpad driver
/// presents (drivers/input/joystick/xpad.c), the layout SDL's controller database and games know:
/// sticks −32768…32767 with y down positive, triggers 0…255, the d-pad as a hat −1…1.
///
/// Buttons by position: xpad names its west button (X) BTN_X, which linux/input-event-codes.h
/// defines as BTN_NORTH (0x133), and its north button (Y) BTN_Y = BTN_WEST (0x134); SDL's mapping
/// for this pad reads them so (x:b2, y:b3). So W is written as 0x133 and N as 0x134, the reverse of
/// the positional names, and a game sees the top button as its Y. CAPTURE has no xpad button and
/// is not sent; ZL and ZR press their triggers fully (the 360 pad has no trigger buttons).
struct XboxPadState: Hashable, Sendable {
    /// The pad's buttons and their key codes, in key-code order (SDL numbers them so: a:b0 … b10).
    static let buttons: [(button: PadButton, code: Int32)] = [
        (.south, BTN_A), (.east, BTN_B), (.west, BTN_X), (.north, BTN_Y),
        (.leftShoulder, BTN_TL), (.rightShoulder, BTN_TR), (.select, BTN_SELECT), (.start, BTN_START),
        (.home, BTN_MODE), (.leftStick, BTN_THUMBL), (.rightStick, BTN_THUMBR),
    ]
    /// The same buttons as a set, built once (an array mapped in every write allocated per step).
    static let buttonSet = PadButtons(buttons.map(\.button))
    static let stickRange: ClosedRange<Int32> = -32768...32767
    static let triggerRange: ClosedRange<Int32> = 0...255

    var buttons: PadButtons
    var leftX: Int32, leftY: Int32, rightX: Int32, rightY: Int32
    var leftTrigger: Int32, rightTrigger: Int32
    var hatX: Int32, hatY: Int32

    /// The axes in ABS code order with their values (the device's setup; `events` compares them field by field).
    var axes: [(code: Int32, value: Int32)] {
        [(ABS_X, leftX), (ABS_Y, leftY), (ABS_Z, leftTrigger), (ABS_RX, rightX), (ABS_RY, rightY), (ABS_RZ, rightTrigger),
         (ABS_HAT0X, hatX), (ABS_HAT0Y, hatY)]
    }

    init(_ pad: PadControls) {
        buttons = Self.buttonSet.intersection(pad.buttons)
        leftX = Self.stick(pad.leftStick.x)
        leftY = Self.stick(-pad.leftStick.y)
        rightX = Self.stick(pad.rightStick.x)
        rightY = Self.stick(-pad.rightStick.y)
        leftTrigger = Self.trigger(pad.leftTrigger, digital: pad.buttons.contains(.leftTrigger))
        rightTrigger = Self.trigger(pad.rightTrigger, digital: pad.buttons.contains(.rightTrigger))
        func held(_ b: PadButton) -> Int32 { pad.buttons.contains(b) ? 1 : 0 }
        hatX = held(.dpadRight) - held(.dpadLeft)
        hatY = held(.dpadDown) - held(.dpadUp)
    }

    /// −1…1 (x right, or y already turned down-positive) to the stick's range; NaN rests.
    static func stick(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        return Int32((min(1, max(-1, value)) * 32767).rounded()).clamped(to: stickRange)
    }

    static func trigger(_ travel: Double, digital: Bool) -> Int32 {
        let analogue = travel.isFinite ? min(1, max(0, travel)) : 0
        return Int32((max(analogue, digital ? 1 : 0) * 255).rounded())
    }

    /// The events that take a device reading `previous` to this state, SYN_REPORT last; none when equal.
    func events(from previous: XboxPadState) -> [InputEvent] {
        guard self != previous else { return [] }
        var events: [InputEvent] = []
        for (button, code) in Self.buttons where buttons.contains(button) != previous.buttons.contains(button) {
            events.append(.key(code, buttons.contains(button)))
        }
        func axis(_ code: Int32, _ now: Int32, _ before: Int32) { if now != before { events.append(.absolute(code, now)) } }
        axis(ABS_X, leftX, previous.leftX)
        axis(ABS_Y, leftY, previous.leftY)
        axis(ABS_Z, leftTrigger, previous.leftTrigger)
        axis(ABS_RX, rightX, previous.rightX)
        axis(ABS_RY, rightY, previous.rightY)
        axis(ABS_RZ, rightTrigger, previous.rightTrigger)
        axis(ABS_HAT0X, hatX, previous.hatX)
        axis(ABS_HAT0Y, hatY, previous.hatY)
        events.append(.synReport)
        return events
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(range.upperBound, max(range.lowerBound, self)) }
}
