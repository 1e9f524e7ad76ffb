import Mapper
import Motion
import Testing

@Suite struct ButtonMappingTests {
    @Test func everyButtonAndTriggerMirrorsByDefault() {
        var mapper = Mapper(profile: .default)
        let all = PadControls(buttons: PadButtons(PadButton.allCases), leftStick: StickPosition(x: 0.1, y: -0.2),
                              rightStick: StickPosition(x: -1, y: 0.5), leftTrigger: 0.25, rightTrigger: 0.75)
        let out = mapper.step(controls: all, time: 0)
        #expect(out.pad == all)
        #expect(out.mouseButtons == [] && out.wheel == 0)
        #expect(mapper.step(controls: .idle, time: 0.01).pad == .idle)
    }

    @Test func remapsToMouseButtonsOtherButtonsWheelAndNone() throws {
        let profile = try MapperProfile(toml: """
            [buttons]
            R2 = "mouse_left"
            L2 = "mouse_right"
            CROSS = "circle"
            N = "wheel_up"
            W = "wheel_down"
            CAPTURE = "none"
            L = "ZR"
            """, file: "buttons.toml")
        var mapper = Mapper(profile: profile)
        let held = PadControls(buttons: PadButtons([.rightTrigger, .leftTrigger, .south, .north, .capture, .start]),
                               leftTrigger: 1, rightTrigger: 0.6)
        let out = mapper.step(controls: held, time: 0)
        #expect(out.mouseButtons == [.left, .right])
        // The triggers went to the mouse: the virtual triggers stay released.
        #expect(out.pad.buttons == PadButtons([.east, .start]))
        #expect(out.pad.leftTrigger == 0 && out.pad.rightTrigger == 0)
        // One detent per press, not per step held.
        #expect(out.wheel == 1)
        #expect(mapper.step(controls: held, time: 0.01).wheel == 0)
        var both = held
        both.buttons.insert(PadButtons(.west))
        #expect(mapper.step(controls: both, time: 0.02).wheel == -1)
        // A shoulder mapped to a trigger presses it fully.
        let shoulder = mapper.step(controls: PadControls(buttons: PadButtons(.leftShoulder)), time: 0.03)
        #expect(shoulder.pad.buttons == PadButtons(.rightTrigger) && shoulder.pad.rightTrigger == 1)
    }

    /// The gyro-off button still reaches the virtual pad, unless the profile maps it to none.
    @Test func gyroButtonsAlsoPassThrough() throws {
        var mapper = Mapper(profile: try MapperProfile(toml: "gyro_off = \"R3\"", file: "p.toml"))
        let out = mapper.step(controls: PadControls(buttons: PadButtons(.rightStick)), time: 0)
        #expect(out.pad.buttons == PadButtons(.rightStick))
        #expect(!mapper.gyroEnabled)
        var hidden = Mapper(profile: try MapperProfile(toml: "gyro_off = \"R3\"\n[buttons]\nR3 = \"none\"", file: "p.toml"))
        #expect(hidden.step(controls: PadControls(buttons: PadButtons(.rightStick)), time: 0).pad.buttons == [])
        #expect(!hidden.gyroEnabled)
    }

    @Test func namesByPositionWithAliases() {
        let pairs: [(String, PadButton)] = [
            ("S", .south), ("cross", .south), ("A", .south), ("CIRCLE", .east), ("B", .east), ("square", .west),
            ("X", .west), ("TRIANGLE", .north), ("y", .north), ("L1", .leftShoulder), ("RB", .rightShoulder),
            ("L2", .leftTrigger), ("ZR", .rightTrigger), ("SHARE", .select), ("CREATE", .select), ("MINUS", .select),
            ("OPTIONS", .start), ("PLUS", .start), ("PS", .home), ("HOME", .home), ("CAPTURE", .capture),
            ("L3", .leftStick), ("R3", .rightStick), ("UP", .dpadUp), ("down", .dpadDown), ("LEFT", .dpadLeft), ("RIGHT", .dpadRight),
        ]
        for (name, button) in pairs { #expect(PadButton(name: name) == button, "\(name)") }
        #expect(PadButton(name: "Q") == nil)
    }
}

@Suite struct PadButtonsTests {
    /// Each button has its own bit, in `allCases` order (the edge and recordings rely on the order).
    @Test func bitsFollowAllCases() {
        for (index, button) in PadButton.allCases.enumerated() {
            #expect(PadButtons(button).rawValue == 1 << UInt32(index), "\(button)")
        }
        #expect(PadButtons(PadButton.allCases).buttons == PadButton.allCases)
    }
}
