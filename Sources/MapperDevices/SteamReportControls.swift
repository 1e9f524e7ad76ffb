import Mapper
import MotionDevices

/// A Valve pad's buttons, sticks and triggers from the same state report its motion comes from
/// (`SteamReport`), for the pads the kernel gives no gamepad evdev node while an app reads their
/// hidraw node: the Steam Deck under hid-generic, and the Steam Controller under hid-steam, which
/// stops its own input device while its hidraw node is open (hid-steam.c steam_client_ll_open).
///
///     if let controls = SteamReportControls.parse(report, layout: .deck) { session.feed(controls: controls) }
///
/// Layouts (SDL src/joystick/hidapi/steam/controller_structs.h; SDL_hidapi_steamdeck.c and
/// SDL_hidapi_steam.c for the bits and signs): after the 4-byte header and the packet number,
/// the button bits are a u64 LE at 8 (the low 32 bits: R2 click 0x1, L2 click 0x2, R 0x4, L 0x8,
/// Y 0x10, B 0x20, X 0x40, A 0x80, d-pad up 0x100, right 0x200, left 0x400, down 0x800,
/// view/back 0x1000, Steam 0x2000, menu/start 0x4000, left-stick click 0x400000; the Deck's right-stick
/// click 0x4000000). Sticks are s16 with y up.
/// - Deck (type 9): triggers u16 0…32767 at 44 and 46, left stick x, y at 48, 50, right stick at 52, 54.
/// - Controller (type 1): triggers u8 at 11 and 12; the left stick at 16, 18 unless a finger is on
///   the left trackpad (bit 0x80000: then those are the pad's), the right trackpad at 20, 22 as
///   the right stick, as SDL maps it.
public enum SteamReportControls {
    /// The controls in one state report; nil for a report of another type or too short.
    public static func parse(_ report: [UInt8], layout: SteamReport.Layout) -> PadControls? {
        guard report.count >= 56, report[0] == 1, report[1] == 0, report[2] == layout.stateType else { return nil }
        let bits = UInt32(report[8]) | UInt32(report[9]) << 8 | UInt32(report[10]) << 16 | UInt32(report[11]) << 24
        var controls = PadControls(buttons: buttons(bits, layout: layout))
        switch layout {
        case .deck:
            controls.leftTrigger = trigger(u16(report, 44), full: 32767)
            controls.rightTrigger = trigger(u16(report, 46), full: 32767)
            controls.leftStick = stick(report, 48)
            controls.rightStick = stick(report, 52)
        case .controller:
            // The low 24 bits only: bytes 11 and 12 are the analogue triggers.
            controls.buttons = buttons(bits & 0x00FF_FFFF, layout: layout)
            controls.leftTrigger = trigger(Int(report[11]), full: 255)
            controls.rightTrigger = trigger(Int(report[12]), full: 255)
            if bits & leftPadFingerDown == 0 { controls.leftStick = stick(report, 16) }
            controls.rightStick = stick(report, 20)
        }
        return controls
    }

    static let leftPadFingerDown: UInt32 = 0x0008_0000

    /// Each bit and the button it is, by position (`PadButton`: A is south on a Valve pad).
    static let buttonBits: [(bit: UInt32, button: PadButton)] = [
        (0x0000_0001, .rightTrigger), (0x0000_0002, .leftTrigger), (0x0000_0004, .rightShoulder), (0x0000_0008, .leftShoulder),
        (0x0000_0010, .north), (0x0000_0020, .east), (0x0000_0040, .west), (0x0000_0080, .south),
        (0x0000_0100, .dpadUp), (0x0000_0200, .dpadRight), (0x0000_0400, .dpadLeft), (0x0000_0800, .dpadDown),
        (0x0000_1000, .select), (0x0000_2000, .home), (0x0000_4000, .start), (0x0040_0000, .leftStick),
    ]
    static let deckRightStickClick: UInt32 = 0x0400_0000

    private static func buttons(_ bits: UInt32, layout: SteamReport.Layout) -> PadButtons {
        var buttons = PadButtons()
        for (bit, button) in buttonBits where bits & bit != 0 { buttons.insert(PadButtons(button)) }
        if layout == .deck, bits & deckRightStickClick != 0 { buttons.insert(PadButtons(.rightStick)) }
        return buttons
    }

    private static func u16(_ r: [UInt8], _ at: Int) -> Int { Int(r[at]) | Int(r[at + 1]) << 8 }

    private static func s16(_ r: [UInt8], _ at: Int) -> Double { Double(Int16(bitPattern: UInt16(u16(r, at)))) }

    /// −1…1 each way (−32768 clamps to −1).
    private static func stick(_ r: [UInt8], _ at: Int) -> StickPosition {
        StickPosition(x: max(-1, s16(r, at) / 32767), y: max(-1, s16(r, at + 2) / 32767))
    }

    private static func trigger(_ value: Int, full: Int) -> Double { min(1, Double(value) / Double(full)) }
}
