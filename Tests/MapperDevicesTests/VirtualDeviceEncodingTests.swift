import CLinuxInput
import Mapper
@testable import MapperDevices
import MotionDevices
import Testing

@Suite("the virtual devices' events")
struct VirtualDeviceEncodingTests {
    /// (type, code, value) of each event, for comparing with the kernel's constants.
    func triples(_ events: [InputEvent]) -> [[Int32]] { events.map { [Int32($0.type), Int32($0.code), $0.value] } }

    @Test("the gamepad writes only what changed, SYN_REPORT last; the same state again writes nothing")
    func gamepadDiff() throws {
        let sink = RecordingSink()
        let pad = VirtualGamepad(sink: sink)
        var controls = PadControls(buttons: PadButtons([.south, .dpadUp]), leftStick: StickPosition(x: 1, y: 1), rightTrigger: 0.5)
        #expect(try pad.write(controls) == 5)
        #expect(triples(sink.take()) == [
            [EV_KEY, BTN_A, 1], [EV_ABS, ABS_X, 32767], [EV_ABS, ABS_Y, -32767], [EV_ABS, ABS_RZ, 128], [EV_ABS, ABS_HAT0Y, -1],
            [EV_SYN, SYN_REPORT, 0],
        ])
        #expect(try pad.write(controls) == 0)
        #expect(sink.batches.isEmpty)
        controls.buttons = []
        controls.leftStick = .centre
        #expect(try pad.write(controls) == 4)
        #expect(triples(sink.take()) == [[EV_KEY, BTN_A, 0], [EV_ABS, ABS_X, 0], [EV_ABS, ABS_Y, 0], [EV_ABS, ABS_HAT0Y, 0], [EV_SYN, SYN_REPORT, 0]])
    }

    @Test("xpad's layout: W is BTN_X (0x133) and N is BTN_Y (0x134); ZL/ZR press the triggers fully; CAPTURE sends nothing")
    func xpadButtons() throws {
        let sink = RecordingSink()
        let pad = VirtualGamepad(sink: sink)
        try pad.write(PadControls(buttons: PadButtons([.west, .north, .leftTrigger, .rightTrigger, .capture, .home])))
        #expect(triples(sink.take()) == [
            [EV_KEY, 0x133, 1], [EV_KEY, 0x134, 1], [EV_KEY, BTN_MODE, 1], [EV_ABS, ABS_Z, 255], [EV_ABS, ABS_RZ, 255],
            [EV_SYN, SYN_REPORT, 0],
        ])
        #expect(try pad.write(PadControls(buttons: PadButtons(.capture))) == 5)   // the rest released
        #expect(try pad.write(.idle) == 0)                                         // CAPTURE alone changed nothing
    }

    @Test("the device declares xpad's 11 buttons in key order, sticks ±32768, triggers 0…255, the hat ±1, and the Xbox 360 ids")
    func gamepadLayout() {
        let layout = VirtualGamepad.layout
        #expect(layout.name == "Tiltkit Virtual Gamepad")
        #expect([layout.bus, layout.vendor, layout.product, layout.version] == [UInt16(BUS_USB), 0x045E, 0x028E, 0x0110])
        #expect(layout.keys == [BTN_A, BTN_B, BTN_X, BTN_Y, BTN_TL, BTN_TR, BTN_SELECT, BTN_START, BTN_MODE, BTN_THUMBL, BTN_THUMBR])
        #expect(layout.keys == layout.keys.sorted())
        let ranges = Dictionary(uniqueKeysWithValues: layout.absoluteAxes.map { ($0.code, [$0.minimum, $0.maximum]) })
        #expect(ranges == [ABS_X: [-32768, 32767], ABS_Y: [-32768, 32767], ABS_RX: [-32768, 32767], ABS_RY: [-32768, 32767],
                           ABS_Z: [0, 255], ABS_RZ: [0, 255], ABS_HAT0X: [-1, 1], ABS_HAT0Y: [-1, 1]])
    }

    @Test("the mouse writes motion and wheel counts each step (wheel with its 120-a-detent hi-res twin) and buttons on change")
    func mouse() throws {
        let sink = RecordingSink()
        let mouse = VirtualMouse(sink: sink)
        #expect(try mouse.write(MapperOutput(mouseButtons: [.left], mouseX: -3, mouseY: 2, wheel: -1)) == 5)
        #expect(triples(sink.take()) == [
            [EV_REL, REL_X, -3], [EV_REL, REL_Y, 2], [EV_REL, REL_WHEEL, -1], [EV_REL, REL_WHEEL_HI_RES, -120], [EV_KEY, BTN_LEFT, 1],
            [EV_SYN, SYN_REPORT, 0],
        ])
        #expect(try mouse.write(MapperOutput(mouseButtons: [.left])) == 0)
        #expect(try mouse.write(MapperOutput(mouseButtons: [.side], mouseY: 1)) == 3)
        #expect(triples(sink.take()) == [[EV_REL, REL_Y, 1], [EV_KEY, BTN_LEFT, 0], [EV_KEY, BTN_SIDE, 1], [EV_SYN, SYN_REPORT, 0]])
        #expect(VirtualMouse.layout.name == "Tiltkit Virtual Mouse")
    }

    @Test("the dry run prints what the devices are sent, by name, one line per step that sends anything")
    func dryRun() throws {
        var lines: [String] = []
        let writer = DryRunWriter { lines.append($0) }
        _ = try writer.write(MapperOutput(pad: PadControls(buttons: PadButtons(.south)), mouseX: 4), time: 1.25)
        _ = try writer.write(MapperOutput(pad: PadControls(buttons: PadButtons(.south))), time: 1.5)
        _ = try writer.write(MapperOutput(), time: 1.75)
        #expect(lines == ["1.2500 mouse REL_X 4 | pad BTN_A 1", "1.7500 pad BTN_A 0"])
    }
}
