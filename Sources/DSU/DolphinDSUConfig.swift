/// Dolphin's side of a DSU server: the client settings file and a Wii Remote profile that takes
/// the pad's motion and buttons from a slot. Text only; `tiltkit serve dsu --print-config` prints it.
///
/// Formats from Dolphin's source: `DualShockUDPClient.cpp` reads `Config/DSUClient.ini`, section
/// `[Server]`, keys `Enabled` and `Entries` (`NAME:IP:PORT;` each, split at `;` then `:`), and
/// names each connected slot `DSUClient/<slot>/<NAME>` with the inputs `Accel Up` … `Gyro Yaw
/// Right`, `Cross`, `Pad N`, `R2`, `Share`, `Options`, `PS` (`Device::Device`). A Wii Remote profile
/// is `Config/Profiles/Wiimote/<name>.ini`, section `[Profile]`, `Device = …` and `Group/Control =
/// \`Input\`` lines (PLAY_FACTS: WiimoteNew.ini's `IMUAccelerometer/Up = \`Accel Up\``).
///
///     print(DolphinDSUConfig.clientINI(name: "Tiltkit", host: "127.0.0.1", port: 26760))
public enum DolphinDSUConfig {
    /// The name the server gets in Dolphin (`DSUClient/0/Tiltkit`).
    public static let defaultName = "Tiltkit"

    /// Where Debian's dolphin-emu (and Dolphin's Linux builds without a portable folder) keep the
    /// user folder's Config/ (XDG: `$XDG_CONFIG_HOME/dolphin-emu`).
    public static let configFolder = "~/.config/dolphin-emu"

    /// `Config/DSUClient.ini` for one server. A server bound to every interface (0.0.0.0) is
    /// reached at 127.0.0.1 from the same machine.
    public static func clientINI(name: String = defaultName, host: String, port: UInt16) -> String {
        let address = host == "0.0.0.0" ? "127.0.0.1" : host
        return """
        # Dolphin's DSU client, for tiltkit serve dsu on \(address):\(port).
        # Save as \(configFolder)/Config/DSUClient.ini (Debian's dolphin-emu; with `dolphin-emu -u DIR`,
        # DIR/Config/DSUClient.ini), or add the entry in Controllers > Alternate Input Sources.
        # Slot N appears as the device DSUClient/N/\(name). A Wii Remote profile that uses slot 0:
        # tiltkit serve dsu --print-config dolphin-wiimote
        [Server]
        Enabled = True
        Entries = \(name):\(address):\(port);

        """
    }

    /// A Wii Remote profile on `slot`: motion from the pad's accelerometer and gyro, the buttons by
    /// position (A south, B the right trigger, 1 west, 2 east, − Share/MINUS, + Options/PLUS,
    /// Home PS/HOME, the D-pad), the right stick's click re-centring the pointer.
    public static func wiimoteProfile(name: String = defaultName, slot: Int = 0) -> String {
        let lines = [
            "Device = DSUClient/\(slot)/\(name)",
            "Buttons/A = `Cross`", "Buttons/B = `R2`", "Buttons/1 = `Square`", "Buttons/2 = `Circle`",
            "Buttons/- = `Share`", "Buttons/+ = `Options`", "Buttons/Home = `PS`",
            "D-Pad/Up = `Pad N`", "D-Pad/Down = `Pad S`", "D-Pad/Left = `Pad W`", "D-Pad/Right = `Pad E`",
            "IMUAccelerometer/Up = `Accel Up`", "IMUAccelerometer/Down = `Accel Down`",
            "IMUAccelerometer/Left = `Accel Left`", "IMUAccelerometer/Right = `Accel Right`",
            "IMUAccelerometer/Forward = `Accel Forward`", "IMUAccelerometer/Backward = `Accel Backward`",
            "IMUGyroscope/Pitch Up = `Gyro Pitch Up`", "IMUGyroscope/Pitch Down = `Gyro Pitch Down`",
            "IMUGyroscope/Roll Left = `Gyro Roll Left`", "IMUGyroscope/Roll Right = `Gyro Roll Right`",
            "IMUGyroscope/Yaw Left = `Gyro Yaw Left`", "IMUGyroscope/Yaw Right = `Gyro Yaw Right`",
            "IMUIR/Recenter = `R3`",
        ]
        return """
        # A Dolphin Wii Remote profile on DSU slot \(slot) of tiltkit serve dsu (the server named \(name)
        # in DSUClient.ini: tiltkit serve dsu --print-config dolphin).
        # Save as \(configFolder)/Config/Profiles/Wiimote/\(name).ini, then Controllers > Wii Remote 1 >
        # Emulated Wii Remote > Configure > Profile: \(name) > Load.
        [Profile]
        \(lines.joined(separator: "\n"))

        """
    }
}
