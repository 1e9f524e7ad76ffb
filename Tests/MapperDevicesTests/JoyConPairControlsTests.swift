import CLinuxInput
import Mapper
@testable import MapperDevices
import Testing

@Suite("a Joy-Con pair's controls")
struct JoyConPairControlsTests {
    @Test("each half's gamepad node under hid-nintendo is a gamepad: the left's d-pad and ABS_X/Y, the right's face buttons and ABS_RX/RY")
    func halvesAreGamepads() {
        let left = PadEvdevNodes.isGamepad(keys: [Int(BTN_DPAD_UP), Int(BTN_TL)], axes: [Int(ABS_X), Int(ABS_Y)])
        let right = PadEvdevNodes.isGamepad(keys: [Int(BTN_SOUTH), Int(BTN_TR)], axes: [Int(ABS_RX), Int(ABS_RY)])
        #expect(left && right)
        // Buttons without a stick, or a stick without buttons, are not.
        #expect(!PadEvdevNodes.isGamepad(keys: [Int(BTN_SOUTH)], axes: [Int(ABS_Z)]))
        #expect(!PadEvdevNodes.isGamepad(keys: [Int(BTN_LEFT)], axes: [Int(ABS_X), Int(ABS_Y)]))
    }

    @Test("the pair: the left's stick and trigger, the right's, both halves' buttons")
    func combined() {
        let left = PadControls(buttons: PadButtons([.dpadUp, .leftShoulder]), leftStick: StickPosition(x: -1, y: 0.5), leftTrigger: 1)
        let right = PadControls(buttons: PadButtons([.south]), rightStick: StickPosition(x: 0.25, y: -1), rightTrigger: 0.5)
        let pair = PadControls.joyConPair(left: left, right: right)
        #expect(pair == PadControls(buttons: PadButtons([.dpadUp, .leftShoulder, .south]), leftStick: StickPosition(x: -1, y: 0.5),
                                    rightStick: StickPosition(x: 0.25, y: -1), leftTrigger: 1, rightTrigger: 0.5))
        // A half gone (read as idle) leaves the other half's controls.
        #expect(PadControls.joyConPair(left: .idle, right: right) == right)
    }
}
