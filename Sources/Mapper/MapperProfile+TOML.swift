import Foundation
import Motion
import TOMLKit

/// Profiles in TOML: JoyShockMapper's setting names in lower case (upper case accepted too) at the
/// top level, and a `[buttons]` table mapping a physical button to what it does. Every key, its
/// values and ranges: Assets/profiles/README.md.
///
///     gyro_space = "player_turn"
///     gyro_sens = 1.5
///     counts_per_360 = 16364
///     gyro_off = "L3"
///     right_stick_mode = "flick"
///     [buttons]
///     ZR = "mouse_left"
extension MapperProfile {
    /// The profile in the file at `path`.
    public static func load(contentsOf path: String) throws(MapperProfileError) -> MapperProfile {
        // Only a regular file is read: a folder or a FIFO would otherwise be called "not UTF-8 text".
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        switch type {
        case nil: throw MapperProfileError(file: path, line: nil, "no such file")
        case .typeDirectory?: throw MapperProfileError(file: path, line: nil, "is a folder, not a profile (a TOML file)")
        case .typeRegular?: break
        default: throw MapperProfileError(file: path, line: nil, "is not a regular file (a profile is a TOML file)")
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            // A file the user may not read is not "not UTF-8": say what the system said.
            if access(path, R_OK) != 0 { throw MapperProfileError(file: path, line: nil, "cannot read: \(String(cString: strerror(errno)))") }
            throw MapperProfileError(file: path, line: nil, "cannot be read as UTF-8 text")
        }
        return try MapperProfile(toml: text, file: path)
    }

    /// The profile a TOML document describes; `file` names it in errors. Keys left out keep
    /// `MapperProfile.default`'s values.
    public init(toml text: String, file: String) throws(MapperProfileError) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw MapperProfileError(file: file, line: error.source.begin.line, "TOML syntax: \(error.description)")
        } catch {
            throw MapperProfileError(file: file, line: nil, "TOML syntax: \(error)")
        }
        var reader = ProfileReader(file: file, lines: TOMLKeyLines(text))
        self = try reader.read(table)
    }
}

/// Reads one parsed document into a profile, every error with its file and line.
private struct ProfileReader {
    let file: String
    let lines: TOMLKeyLines

    /// A key as written and its value.
    struct Entry {
        var key: String
        var value: TOMLValueConvertible
    }

    /// Lower-cased key → entry, top level (`[buttons]` apart).
    var entries: [String: Entry] = [:]

    func error(_ key: String, in table: String = "", _ message: String) -> MapperProfileError {
        MapperProfileError(file: file, line: lines.line(of: key, in: table), message)
    }

    mutating func read(_ table: TOMLTable) throws(MapperProfileError) -> MapperProfile {
        var buttonsTable: TOMLTable?
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            let lower = key.lowercased()
            if lower == "buttons" {
                guard let t = value.table else { throw error(key, "\"buttons\" must be a table ([buttons]), found a \(value.type)") }
                buttonsTable = t
                continue
            }
            guard Self.keys.contains(lower) else {
                let hint = nearestName(to: lower, in: Self.keys + ["buttons"]).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw error(key, value.type == .table ? "unknown table [\(key)]\(hint)" : "unknown key \"\(key)\"\(hint)")
            }
            if let other = entries[lower] { throw error(key, "\"\(key)\" is set twice (also as \"\(other.key)\")") }
            entries[lower] = Entry(key: key, value: value)
        }

        var p = MapperProfile()
        try readGyro(into: &p)
        try readCalibration(into: &p)
        try readSticks(into: &p)
        if let buttonsTable { p.buttons = try readButtons(buttonsTable) }
        return p
    }

    // MARK: Sections

    func readGyro(into p: inout MapperProfile) throws(MapperProfileError) {
        if let v = try choice("gyro_output", GyroOutput.self) { p.gyroOutput = v }
        if let v = try string("gyro_space") {
            guard let space = Self.spaces[v.lowercased()] else {
                throw badChoice("gyro_space", v, Self.spaces.keys.sorted())
            }
            p.gyroSpace = space
        }
        let sens = try number("gyro_sens", atLeast: 0)
        let minSens = try number("min_gyro_sens", atLeast: 0)
        let maxSens = try number("max_gyro_sens", atLeast: 0)
        let minThreshold = try number("min_gyro_threshold", atLeast: 0)
        let maxThreshold = try number("max_gyro_threshold", atLeast: 0)
        if let sens { p.gyroSensitivity = sens }
        if minSens != nil || maxSens != nil || minThreshold != nil || maxThreshold != nil {
            if sens != nil { throw error(entries["gyro_sens"]!.key, "gyro_sens and min_gyro_sens/max_gyro_sens both set: give one sensitivity or the acceleration curve") }
            guard let minSens, let maxSens else {
                throw error(entries[minSens == nil ? "max_gyro_sens" : "min_gyro_sens"]?.key ?? "min_gyro_threshold",
                            "acceleration needs both min_gyro_sens and max_gyro_sens")
            }
            let lower = minThreshold ?? 0, upper = maxThreshold ?? 0
            if upper < lower {
                throw error(entries["max_gyro_threshold"]?.key ?? "min_gyro_threshold",
                            "max_gyro_threshold (\(upper)) must be at least min_gyro_threshold (\(lower))")
            }
            p.gyroAcceleration = GyroAcceleration(lowerSensitivity: minSens, upperSensitivity: maxSens, lowerSpeed: lower, upperSpeed: upper)
        }
        if let v = try number("gyro_smooth_threshold", atLeast: 0) { p.gyroSmoothThreshold = v }
        if let v = try number("gyro_smooth_time", atLeast: 0.001, atMost: 10) { p.gyroSmoothTime = v }
        if let v = try number("gyro_cutoff_speed", atLeast: 0) { p.gyroCutoffSpeed = v }
        if let v = try number("gyro_cutoff_recovery", atLeast: 0) { p.gyroCutoffRecovery = v }
        if let v = try axis("gyro_axis_x") { p.gyroInvertX = v }
        if let v = try axis("gyro_axis_y") { p.gyroInvertY = v }
        if let v = try buttons("gyro_off") { p.gyroOffButtons = v }
        if let v = try buttons("gyro_on") { p.gyroOnButtons = v }
        if let v = try buttons("gyro_toggle") { p.gyroToggleButtons = v }
        if let v = try choice("gyro_calibration", GyroCalibrationSetting.self) { p.gyroCalibration = v }
    }

    func readCalibration(into p: inout MapperProfile) throws(MapperProfileError) {
        let counts = try number("counts_per_360", above: 0)
        // JoyShockMapper's defaults: REAL_WORLD_CALIBRATION 40, IN_GAME_SENS 1 (main.cpp).
        let realWorld = try number("real_world_calibration", above: 0)
        let inGame = try number("in_game_sens", above: 0)
        if let counts {
            if let other = entries["real_world_calibration"] ?? entries["in_game_sens"] {
                throw error(other.key, "counts_per_360 and \(other.key.lowercased()) both set: counts_per_360 is measured at the game's sensitivity, give one calibration")
            }
            p.countsPer360 = counts
        } else if realWorld != nil || inGame != nil {
            p.countsPer360 = 360 * (realWorld ?? 40) / (inGame ?? 1)
        }
        if let v = try number("virtual_stick_calibration", above: 0) { p.stickTurnSpeed = v }
    }

    func readSticks(into p: inout MapperProfile) throws(MapperProfileError) {
        for (prefix, path) in [("left_", \MapperProfile.leftStick), ("right_", \MapperProfile.rightStick)] {
            if let v = try choice(prefix + "stick_mode", StickMode.self) { p[keyPath: path].mode = v }
            // The unprefixed key sets both sticks (JoyShockMapper's STICK_DEADZONE_INNER does); a
            // prefixed one overrides it for its stick.
            for (name, field, low, high) in Self.stickNumbers {
                if let v = try number(name, atLeast: low, atMost: high) { p[keyPath: path][keyPath: field] = v }
                if let v = try number(prefix + name, atLeast: low, atMost: high) { p[keyPath: path][keyPath: field] = v }
            }
            let s = p[keyPath: path]
            if s.deadzoneInner + s.deadzoneOuter >= 1 {
                throw error(entries[prefix + "stick_deadzone_outer"]?.key ?? entries["stick_deadzone_outer"]?.key ?? entries[prefix + "stick_deadzone_inner"]?.key ?? "stick_deadzone_inner",
                            "\(prefix)stick deadzones leave no travel: inner \(s.deadzoneInner) + outer \(s.deadzoneOuter) must be below 1")
            }
            if s.gameDeadzoneInner + s.gameDeadzoneOuter >= 1 {
                throw error(entries[prefix + "stick_undeadzone_outer"]?.key ?? entries["stick_undeadzone_outer"]?.key ?? entries[prefix + "stick_undeadzone_inner"]?.key ?? "stick_undeadzone_inner",
                            "\(prefix)stick undeadzones leave no travel: inner \(s.gameDeadzoneInner) + outer \(s.gameDeadzoneOuter) must be below 1")
            }
        }
        if let v = try number("flick_time", atLeast: 0, atMost: 10) { p.flickTime = v }
        if let v = try number("flick_time_exponent", atLeast: 0, atMost: 10) { p.flickTimeExponent = v }
        if let entry = entries["flick_snap_mode"] {
            let written = entry.value.int.map(String.init) ?? entry.value.string
            guard let written else { throw error(entry.key, "flick_snap_mode: expected \"none\", 4 or 8, found a \(entry.value.type)") }
            switch written.lowercased() {
            case "none", "0": p.flickSnapMode = .none
            case "4": p.flickSnapMode = .four
            case "8": p.flickSnapMode = .eight
            default: throw error(entry.key, "flick_snap_mode: expected \"none\", 4 or 8, found \(written)")
            }
        }
        if let v = try number("flick_snap_strength", atLeast: 0, atMost: 1) { p.flickSnapStrength = v }
        if let v = try number("flick_deadzone_angle", atLeast: 0, atMost: 180) { p.flickDeadzoneAngle = v }
        if let v = try number("rotate_smooth_override", atLeast: 0, atMost: .pi) { p.rotateSmoothThreshold = v }
    }

    func readButtons(_ table: TOMLTable) throws(MapperProfileError) -> [PadButton: ButtonTarget] {
        var result: [PadButton: ButtonTarget] = [:]
        var written: [PadButton: String] = [:]
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            guard let button = PadButton(name: key) else {
                let hint = nearestName(to: key, in: PadButton.allNames).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw error(key, in: "buttons", "unknown button \"\(key)\"\(hint); buttons are JoyShockMapper's S E W N L R ZL ZR MINUS PLUS HOME CAPTURE L3 R3 UP DOWN LEFT RIGHT or their PlayStation/Xbox names")
            }
            if let other = written[button] { throw error(key, in: "buttons", "\"\(key)\" is the same button as \"\(other)\", mapped twice") }
            guard let name = value.string else {
                throw error(key, in: "buttons", "buttons.\(key): expected a string (a button, mouse_left…, wheel_up, none), found a \(value.type)")
            }
            guard let target = ButtonTarget(name: name) else {
                let hint = nearestName(to: name, in: ButtonTarget.mouseNames + PadButton.allNames).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw error(key, in: "buttons", "buttons.\(key): unknown target \"\(name)\"\(hint); expected a pad button, \(ButtonTarget.mouseNames.joined(separator: ", "))")
            }
            result[button] = target
            written[button] = key
        }
        return result
    }

    // MARK: Values

    func number(_ key: String, atLeast low: Double = -.infinity, atMost high: Double = .infinity) throws(MapperProfileError) -> Double? {
        guard let entry = entries[key] else { return nil }
        guard let v = entry.value.double ?? entry.value.int.map(Double.init) else {
            throw error(entry.key, "\(key): expected a number, found a \(entry.value.type)")
        }
        guard v.isFinite, v >= low, v <= high else {
            let range = high == .infinity ? "\(Self.format(low)) or more" : "between \(Self.format(low)) and \(Self.format(high))"
            throw error(entry.key, "\(key) must be \(range), found \(Self.format(v))")
        }
        return v
    }

    func number(_ key: String, above low: Double) throws(MapperProfileError) -> Double? {
        guard let v = try number(key) else { return nil }
        guard v > low else { throw error(entries[key]!.key, "\(key) must be above \(Self.format(low)), found \(Self.format(v))") }
        return v
    }

    func string(_ key: String) throws(MapperProfileError) -> String? {
        guard let entry = entries[key] else { return nil }
        guard let s = entry.value.string else { throw error(entry.key, "\(key): expected a string, found a \(entry.value.type)") }
        return s
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(MapperProfileError) -> T? where T.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let v = T(rawValue: s.lowercased()) else { throw badChoice(key, s, T.allCases.map(\.rawValue)) }
        return v
    }

    func badChoice(_ key: String, _ found: String, _ options: [String]) -> MapperProfileError {
        let hint = nearestName(to: found, in: options).map { " (did you mean \"\($0)\"?)" } ?? ""
        return error(entries[key]!.key, "\(key): unknown value \"\(found)\"\(hint); expected one of \(options.joined(separator: ", "))")
    }

    /// JoyShockMapper's GYRO_AXIS_X/Y: "standard" or "inverted"; true for inverted.
    func axis(_ key: String) throws(MapperProfileError) -> Bool? {
        guard let s = try string(key) else { return nil }
        switch s.lowercased() {
        case "standard": return false
        case "inverted": return true
        default: throw badChoice(key, s, ["standard", "inverted"])
        }
    }

    /// One button name or an array of them.
    func buttons(_ key: String) throws(MapperProfileError) -> PadButtons? {
        guard let entry = entries[key] else { return nil }
        var names: [String] = []
        if let s = entry.value.string {
            names = [s]
        } else if let array = entry.value.array {
            for element in array {
                guard let s = element.string else { throw error(entry.key, "\(key): expected button names, found a \(element.type) in the array") }
                names.append(s)
            }
        } else {
            throw error(entry.key, "\(key): expected a button name or an array of them, found a \(entry.value.type)")
        }
        var set = PadButtons()
        for name in names {
            guard let button = PadButton(name: name) else {
                let hint = nearestName(to: name, in: PadButton.allNames).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw error(entry.key, "\(key): unknown button \"\(name)\"\(hint)")
            }
            set.insert(PadButtons(button))
        }
        return set
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    // MARK: The keys

    /// JoyShockMapper's GYRO_SPACE values; `player` and `world` as Motion's GyroSpace spells them.
    static let spaces: [String: GyroSpace] = [
        "local": .local, "player_turn": .player, "player_lean": .playerLean, "world_turn": .world, "world_lean": .worldLean,
        "player": .player, "world": .world,
    ]

    static var stickNumbers: [(String, WritableKeyPath<StickSettings, Double>, Double, Double)] { [
        ("stick_sens", \.aimSpeed, 0, 100_000),
        ("stick_power", \.aimPower, 0, 100),
        ("stick_deadzone_inner", \.deadzoneInner, 0, 1),
        ("stick_deadzone_outer", \.deadzoneOuter, 0, 1),
        ("stick_undeadzone_inner", \.gameDeadzoneInner, 0, 1),
        ("stick_undeadzone_outer", \.gameDeadzoneOuter, 0, 1),
        ("stick_unpower", \.gamePower, 0.01, 100),
    ] }

    static let keys: [String] = [
        "gyro_output", "gyro_space", "gyro_sens", "min_gyro_sens", "max_gyro_sens", "min_gyro_threshold", "max_gyro_threshold",
        "gyro_smooth_threshold", "gyro_smooth_time", "gyro_cutoff_speed", "gyro_cutoff_recovery", "gyro_axis_x", "gyro_axis_y",
        "gyro_off", "gyro_on", "gyro_toggle", "gyro_calibration",
        "counts_per_360", "real_world_calibration", "in_game_sens", "virtual_stick_calibration",
        "left_stick_mode", "right_stick_mode",
        "flick_time", "flick_time_exponent", "flick_snap_mode", "flick_snap_strength", "flick_deadzone_angle", "rotate_smooth_override",
    ] + stickNumbers.flatMap { [$0.0, "left_" + $0.0, "right_" + $0.0] }
}
