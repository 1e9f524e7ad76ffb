import DSU
import DSUServer
import Mapper
import Motion
import XCTest

/// Buttons, sticks, triggers and touches in a pad-data packet, byte by byte at the offsets of
/// v1993/cemuhook-protocol's table (+20 for the header and message type; Dolphin's
/// `PadDataResponse`): 36 and 37 the bitmasks, 38 PS, 39 touch click, 40…43 sticks, 44…55 the
/// analog bytes (D-pad left, down, right, up, Y, B, A, X, R1, L1, R2, L2), 56…67 two touches.
final class DSUPadInputTests: XCTestCase {
    private let info = DSUSlotInfo(slot: 0, state: .connected, model: .fullGyro, connection: .usb)
    private let motion = DSUMotion(timestamp: 5, acceleration: .init(x: 0, y: -1, z: 0), gyroscope: .init(pitch: 0, yaw: 0, roll: 0))

    private func packet(_ input: DSUPadInput) -> [UInt8] {
        DSUCodec.encode(.padData(info, counter: 0, input: input, motion: motion), from: 1)
    }

    /// The 32 bytes from offset 36 that `input` gives, with everything else as a neutral pad's.
    private func expected(_ changes: [Int: UInt8]) -> [UInt8] {
        var neutral = [UInt8](repeating: 0, count: 32)
        for i in 4..<8 { neutral[i] = 128 }
        for (offset, value) in changes { neutral[offset - 36] = value }
        return neutral
    }

    func testNeutralPad() {
        XCTAssertEqual(Array(packet(.neutral)[36..<68]), expected([:]))
    }

    func testEachButtonSetsItsBitAndAnalogByte() {
        let cases: [(DSUButtons, [Int: UInt8])] = [
            (.dpadLeft, [36: 0x80, 44: 255]), (.dpadDown, [36: 0x40, 45: 255]),
            (.dpadRight, [36: 0x20, 46: 255]), (.dpadUp, [36: 0x10, 47: 255]),
            (.options, [36: 0x08]), (.r3, [36: 0x04]), (.l3, [36: 0x02]), (.share, [36: 0x01]),
            (.square, [37: 0x80, 48: 255]), (.cross, [37: 0x40, 49: 255]),
            (.circle, [37: 0x20, 50: 255]), (.triangle, [37: 0x10, 51: 255]),
            (.r1, [37: 0x08, 52: 255]), (.l1, [37: 0x04, 53: 255]),
            (.r2, [37: 0x02]), (.l2, [37: 0x01]),
            (.ps, [38: 1]), (.touchpad, [39: 1]),
        ]
        for (button, bytes) in cases {
            XCTAssertEqual(Array(packet(DSUPadInput(buttons: button))[36..<68]), expected(bytes), "\(button)")
        }
        XCTAssertEqual(Array(packet(DSUPadInput(buttons: [.cross, .dpadUp]))[36..<38]), [0x10, 0x40])
    }

    func testSticksTriggersAndTouches() {
        let input = DSUPadInput(leftStick: DSUStick(deflectionX: 1, deflectionY: 1), rightStick: DSUStick(deflectionX: -1, deflectionY: -0.5),
                                leftTrigger: 200, rightTrigger: 17,
                                firstTouch: DSUTouch(id: 7, x: 0x0102, y: 0x0304), secondTouch: DSUTouch(id: 9, x: 1919, y: 941))
        let b = packet(input)
        XCTAssertEqual(Array(b[40..<44]), [255, 255, 0, 64], "x plus rightward, y plus upward, 128 centred")
        XCTAssertEqual(Array(b[54..<56]), [17, 200], "R2 then L2")
        XCTAssertEqual(Array(b[56..<62]), [1, 7, 0x02, 0x01, 0x04, 0x03])
        XCTAssertEqual(Array(b[62..<68]), [1, 9, 0x7F, 0x07, 0xAD, 0x03])
        XCTAssertEqual(Array(b[68..<76]), [5, 0, 0, 0, 0, 0, 0, 0], "the motion block stays where it was")
        XCTAssertEqual(try DSUCodec.decodeResponse(b).get().message, .padData(info, counter: 0, input: input, motion: motion))
        let oneTouch = packet(DSUPadInput(secondTouch: DSUTouch(id: 3, x: 10, y: 20)))
        XCTAssertEqual(Array(oneTouch[56..<68]), [0, 0, 0, 0, 0, 0, 1, 3, 10, 0, 20, 0])
    }

    func testStickBytes() {
        XCTAssertEqual(DSUStick(deflectionX: 0, deflectionY: 0), .centre)
        XCTAssertEqual(DSUStick(deflectionX: 2, deflectionY: -7), DSUStick(x: 255, y: 0), "clamped")
        XCTAssertEqual(DSUStick(deflectionX: .nan, deflectionY: .infinity), .centre, "not a number: centred")
    }

    /// A pad's controls by position: a DualShock 4's cross (south) and a Switch pad's B (south)
    /// both arrive as Cross; the stick's up is DSU's plus.
    func testPadControlsByPosition() {
        let controls = PadControls(buttons: PadButtons([.south, .dpadLeft, .select, .start, .home, .leftStick, .rightShoulder]),
                                   leftStick: StickPosition(x: 1, y: 0), rightStick: StickPosition(x: 0, y: 1),
                                   leftTrigger: 0.5, rightTrigger: 0)
        let input = DSUPadInput(controls: controls)
        XCTAssertEqual(input.buttons, [.cross, .dpadLeft, .share, .options, .ps, .l3, .r1])
        XCTAssertEqual(input.leftStick, DSUStick(x: 255, y: 128))
        XCTAssertEqual(input.rightStick, DSUStick(x: 128, y: 255))
        XCTAssertEqual(input.leftTrigger, 128)
        XCTAssertEqual(input.rightTrigger, 0)
        let b = packet(input)
        XCTAssertEqual(Array(b[36..<40]), [0x80 | 0x08 | 0x02 | 0x01, 0x40 | 0x08, 1, 0])
        for (button, dsu) in [(PadButton.east, DSUButtons.circle), (.west, .square), (.north, .triangle),
                              (.leftShoulder, .l1), (.rightStick, .r3), (.capture, .touchpad),
                              (.dpadUp, .dpadUp), (.dpadDown, .dpadDown), (.dpadRight, .dpadRight)] {
            XCTAssertEqual(DSUPadInput(controls: PadControls(buttons: PadButtons(button))).buttons, dsu, "\(button)")
        }
    }

    /// Digital triggers (a Switch pad's ZL/ZR click, no travel) read fully pressed; analog travel
    /// is sent as measured even while the click is held.
    func testTriggers() {
        let digital = DSUPadInput(controls: PadControls(buttons: PadButtons([.leftTrigger, .rightTrigger])))
        XCTAssertEqual([digital.leftTrigger, digital.rightTrigger], [255, 255])
        XCTAssertEqual(digital.buttons, [.l2, .r2])
        let analog = DSUPadInput(controls: PadControls(buttons: PadButtons(.rightTrigger), rightTrigger: 0.2))
        XCTAssertEqual(analog.rightTrigger, 51)
        let touched = DSUPadInput(controls: .idle, touches: [DSUTouch(id: 1, x: 2, y: 3)], touchpadClicked: true)
        XCTAssertEqual(touched.buttons, [.touchpad])
        XCTAssertEqual(touched.firstTouch, DSUTouch(id: 1, x: 2, y: 3))
        XCTAssertNil(touched.secondTouch)
    }

    /// The battery byte from the kernel's power supply, and a pad's address from its uniq.
    func testBatteryAndAddress() {
        XCTAssertEqual(DSUSlotInfo.battery(status: "Charging", capacityPercent: 40), 0xEE)
        XCTAssertEqual(DSUSlotInfo.battery(status: "Full", capacityPercent: 100), 0xEF)
        XCTAssertEqual([5, 10, 29, 30, 59, 60, 89, 90, 100].map { DSUSlotInfo.battery(status: "Discharging", capacityPercent: $0) },
                       [1, 2, 2, 3, 3, 4, 4, 5, 5])
        XCTAssertEqual(DSUSlotInfo.battery(status: "Discharging", capacityPercent: nil, capacityLevel: "Low"), 0x02)
        XCTAssertEqual(DSUSlotInfo.battery(status: nil, capacityPercent: nil), 0)
        XCTAssertEqual(DSUSlotInfo.battery(status: "Discharging", capacityPercent: 140), 0)
        XCTAssertEqual(DSUMAC(text: "a4:53:85:0F:11:e2")?.array, [0xA4, 0x53, 0x85, 0x0F, 0x11, 0xE2])
        for bad in ["", "00:00:00:00:00:00", "a4:53:85:0f:11", "a4:53:85:0f:11:e2:01", "a4:53:85:0f:11:zz", "a4:53:85:0f:1:e22"] {
            XCTAssertNil(DSUMAC(text: bad), bad)
        }
    }

    /// The server sends a slot's latest input with each sample, to every subscriber.
    func testServerStateSendsTheSlotsInput() throws {
        var state = DSUServerState<Peer>(serverID: 3)
        state.setSlot(0, info)
        _ = state.receive(DSUCodec.encode(.padData(.allSlots), from: 1), from: "a", at: 0)
        let input = DSUPadInput(buttons: [.cross], leftStick: DSUStick(x: 0, y: 255))
        state.setInput(input, slot: 0)
        state.setBattery(0xEE, slot: 0)
        let sample = MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 0))
        let out = state.sample(sample, slot: 0, at: 0.1)
        XCTAssertEqual(out.count, 1)
        let data = try XCTUnwrap(try DSUCodec.decodeResponse(out[0].bytes).get().message.padData)
        XCTAssertEqual(data.input, input)
        XCTAssertEqual(data.info.battery, 0xEE)
    }
}
