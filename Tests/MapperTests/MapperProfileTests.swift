import Foundation
import Mapper
import Motion
import Testing
import TestSupport

@Suite struct MapperProfileTests {
    static let examples = ["mouse-aim-shooter", "stick-aim", "desktop-pointer"]

    @Test(arguments: examples)
    func everyExampleProfileLoads(name: String) throws {
        let path = TestData.assets.appendingPathComponent("profiles/\(name).toml").path
        let profile = try MapperProfile.load(contentsOf: path)
        #expect(profile != .default)
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        // Each moves something for a turn: the mouse, or the virtual right stick.
        var moved = false
        for s in pad.rest(0.2) + pad.turn(degreesPerSecond: -90, seconds: 0.5) {
            let out = mapper.step(sample: s, controls: .idle)
            moved = moved || out.mouseX > 0 || out.pad.rightStick.x > 0.2
        }
        #expect(moved, "\(name)")
    }

    @Test func examplesSayWhatTheyMean() throws {
        let shooter = try MapperProfile.load(contentsOf: TestData.assets.appendingPathComponent("profiles/mouse-aim-shooter.toml").path)
        #expect(shooter.countsPer360 == 16_364)
        #expect(shooter.gyroAcceleration == GyroAcceleration(lowerSensitivity: 1.5, upperSensitivity: 3, lowerSpeed: 10, upperSpeed: 100))
        #expect(shooter.rightStick.mode == .flick && shooter.leftStick.mode == .passthrough)
        #expect(shooter.target(of: .rightTrigger) == .mouse(.left))
        #expect(shooter.gyroOffButtons == PadButtons(.rightStick))
        let stick = try MapperProfile.load(contentsOf: TestData.assets.appendingPathComponent("profiles/stick-aim.toml").path)
        #expect(stick.gyroOutput == .rightStick && stick.stickTurnSpeed == 180 && stick.rightStick.gameDeadzoneInner == 0.2)
    }

    @Test func emptyProfileIsTheDefault() throws {
        #expect(try MapperProfile(toml: "# nothing\n", file: "empty.toml") == .default)
        #expect(MapperProfile.default.gyroOutput == .mouse && MapperProfile.default.gyroSpace == .player)
        #expect(MapperProfile.default.gyroSensitivity == 1 && MapperProfile.default.countsPer360 == 14_400)
        #expect(MapperProfile.default.gyroCalibration == .auto)
    }

    @Test func keysAreCaseInsensitiveAndStickKeysSetBothSticks() throws {
        let p = try MapperProfile(toml: """
            GYRO_SENS = 2
            Gyro_Space = "WORLD_LEAN"
            stick_deadzone_inner = 0.2
            right_stick_deadzone_inner = 0.05
            flick_snap_mode = 8
            gyro_off = ["L3", "circle"]
            gyro_calibration = "off"
            """, file: "p.toml")
        #expect(p.gyroSensitivity == 2 && p.gyroSpace == .worldLean)
        #expect(p.leftStick.deadzoneInner == 0.2 && p.rightStick.deadzoneInner == 0.05)
        #expect(p.flickSnapMode == .eight)
        #expect(p.gyroOffButtons == PadButtons([.leftStick, .east]))
        #expect(p.gyroCalibration == .off)
    }

    /// Every error class names the file and line.
    @Test(arguments: [
        ("gyro_sens = 1\ngyro_space = \n", 2, "TOML syntax"),
        ("gyro_sens = 1\n\ngyro_sense = 2\n", 3, "unknown key \"gyro_sense\" (did you mean \"gyro_sens\"?)"),
        ("gyro_sens = \"fast\"\n", 1, "gyro_sens: expected a number, found a string"),
        ("# c\ngyro_sens = -1\n", 2, "gyro_sens must be 0 or more, found -1"),
        ("flick_snap_strength = 2\n", 1, "flick_snap_strength must be between 0 and 1, found 2"),
        ("counts_per_360 = 0\n", 1, "counts_per_360 must be above 0"),
        ("gyro_space = \"player_trun\"\n", 1, "did you mean \"player_turn\"?"),
        ("gyro_off = \"L4\"\n", 1, "gyro_off: unknown button \"L4\" (did you mean \"L3\"?)"),
        ("x = 1\n[buttons]\nZR = \"mouse_left\"\nCROS = \"S\"\n", 1, "unknown key \"x\""),
        ("[buttons]\nZR = \"mouse_left\"\nCROS = \"S\"\n", 3, "unknown button \"CROS\" (did you mean \"CROSS\"?)"),
        ("[buttons]\n\nZR = \"mouse_lef\"\n", 3, "unknown target \"mouse_lef\" (did you mean \"mouse_left\"?)"),
        ("[buttons]\nZR = 1\n", 2, "expected a string"),
        ("[gyro]\nsens = 1\n", 1, "unknown table [gyro]"),
        ("counts_per_360 = 16364\nin_game_sens = 2\n", 2, "counts_per_360 and in_game_sens both set"),
        ("gyro_sens = 1\nmin_gyro_sens = 1\nmax_gyro_sens = 2\n", 1, "gyro_sens and min_gyro_sens/max_gyro_sens both set"),
        ("min_gyro_sens = 1\n", 1, "acceleration needs both"),
        ("stick_deadzone_inner = 0.6\nstick_deadzone_outer = 0.5\n", 2, "deadzones leave no travel"),
        ("[buttons]\nS = \"E\"\nCROSS = \"W\"\n", 2, "\"S\" is the same button as \"CROSS\""),
    ])
    func errorsCarryFileAndLine(text: String, line: Int, message: String) {
        let error = #expect(throws: MapperProfileError.self) { try MapperProfile(toml: text, file: "game.toml") }
        let description = error?.description ?? ""
        #expect(description.hasPrefix("game.toml:\(line): ") && description.contains(message), "\(description)")
    }

    @Test func missingFileNamesThePath() {
        let error = #expect(throws: MapperProfileError.self) { try MapperProfile.load(contentsOf: "/nonexistent/x.toml") }
        #expect(error?.description == "/nonexistent/x.toml: no such file")
    }

    /// A reloaded profile: the new sensitivity applies at once, the toggle's state and the carried
    /// fraction of a count survive, and a button held across the reload is not a new press.
    @Test func aFolderOrAFIFOIsRefusedByWhatItIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let asFolder = #expect(throws: MapperProfileError.self) { try MapperProfile.load(contentsOf: folder.path) }
        #expect(asFolder?.description == "\(folder.path): is a folder, not a profile (a TOML file)")
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // Read, a FIFO with no writer would wait forever; it is refused before any read.
        let asFIFO = #expect(throws: MapperProfileError.self) { try MapperProfile.load(contentsOf: fifo.path) }
        #expect(asFIFO?.description == "\(fifo.path): is not a regular file (a profile is a TOML file)")
    }

    @Test func replaceKeepsWhatCarriesOver() {
        var profile = MapperProfile.exact(countsPer360: 75 * 360, space: .local)
        profile.gyroToggleButtons = PadButtons(.north)
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        let toggle = PadControls(buttons: PadButtons(.north))
        _ = mapper.step(controls: toggle, time: pad.time)
        #expect(!mapper.gyroEnabled)
        profile.gyroSensitivity = 2
        mapper.replace(profile: profile)
        #expect(mapper.profile.gyroSensitivity == 2)
        _ = mapper.step(controls: toggle, time: pad.time)
        #expect(!mapper.gyroEnabled)
        _ = mapper.step(controls: .idle, time: pad.time)
        _ = mapper.step(controls: toggle, time: pad.time)
        #expect(mapper.gyroEnabled)
        // 0.3 count a sample at sensitivity 1; 0.6 at 2; the remainder carried across a reload.
        profile.gyroSensitivity = 1
        mapper.replace(profile: profile)
        var total = mapper.run(pad.turn(degreesPerSecond: -1, seconds: 0.02), controls: toggle).x   // 5 × 0.3 = 1.5
        profile.gyroSensitivity = 2
        mapper.replace(profile: profile)
        total += mapper.run(pad.turn(degreesPerSecond: -1, seconds: 0.02), controls: toggle).x      // 5 × 0.6 = 3 (+0.5)
        #expect(total == 4)
    }
}
