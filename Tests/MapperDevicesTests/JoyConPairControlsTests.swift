import CLinuxInput
import Foundation
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

    @Test("two halves changing together: the pair last delivered holds both presses, whatever order the readers' threads run in")
    func halvesDeliverInOrder() {
        let halves = JoyConHalves()
        let delivered = DeliveredPairs()
        let rightInside = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let a = PadControls(buttons: PadButtons([.east])), up = PadControls(buttons: PadButtons([.dpadUp]))
        // The right half's reader is held between combining and delivering (as a busy machine may
        // hold it) while the left half's press arrives on the other thread.
        DispatchQueue.global().async(group: done) {
            halves.update(.right, a) { pair in
                rightInside.signal()
                Thread.sleep(forTimeInterval: 0.05)
                delivered.append(pair)
            }
        }
        rightInside.wait()
        DispatchQueue.global().async(group: done) { halves.update(.left, up) { delivered.append($0) } }
        done.wait()
        #expect(delivered.all == [a, .joyConPair(left: up, right: a)])
        halves.lost(.left) { delivered.append($0) }
        #expect(delivered.all.last == a && halves.anyGone, "the left half gone: the right's press alone")
    }
}

private final class DeliveredPairs: @unchecked Sendable {
    private let lock = NSLock()
    private var pairs: [PadControls] = []
    func append(_ pair: PadControls) { lock.withLock { pairs.append(pair) } }
    var all: [PadControls] { lock.withLock { pairs } }
}
