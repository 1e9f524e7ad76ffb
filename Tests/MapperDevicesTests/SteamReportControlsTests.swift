import Mapper
@testable import MapperDevices
import MotionDevices
import Testing

/// State reports laid out as SDL's steam/controller_structs.h says, with the controls set.
private func report(_ layout: SteamReport.Layout, buttons: UInt32 = 0, fields: [(offset: Int, value: Int16)] = [],
                    bytes: [(offset: Int, value: UInt8)] = []) -> [UInt8] {
    var r = [UInt8](repeating: 0, count: 64)
    r[0] = 1
    r[2] = layout == .deck ? 0x09 : 0x01
    r[3] = layout == .deck ? 0x40 : 0x3C
    for i in 0..<4 { r[8 + i] = UInt8(truncatingIfNeeded: buttons >> (8 * i)) }
    for (offset, value) in fields {
        let bits = UInt16(bitPattern: value)
        r[offset] = UInt8(bits & 0xFF)
        r[offset + 1] = UInt8(bits >> 8)
    }
    for (offset, value) in bytes { r[offset] = value }
    return r
}

@Suite("a Steam pad's controls from its state reports")
struct SteamReportControlsTests {
    @Test("the Deck: A, B, X, Y by position, the d-pad, shoulders, sticks (y up), triggers, both stick clicks")
    func deck() throws {
        let r = report(.deck, buttons: 0x80 | 0x10 | 0x100 | 0x8 | 0x4000 | 0x40_0000 | 0x400_0000,
                       fields: [(44, 32767), (46, 0), (48, 32767), (50, -32768), (52, -16384), (54, 16384)])
        let controls = try #require(SteamReportControls.parse(r, layout: .deck))
        #expect(controls.buttons == PadButtons([.south, .north, .dpadUp, .leftShoulder, .start, .leftStick, .rightStick]))
        #expect(controls.leftStick == StickPosition(x: 1, y: -1))
        #expect(abs(controls.rightStick.x + 0.5) < 1e-4 && abs(controls.rightStick.y - 0.5) < 1e-4)
        #expect(controls.leftTrigger == 1 && controls.rightTrigger == 0)
        #expect(SteamReportControls.parse(report(.deck), layout: .deck) == .idle)
    }

    @Test("the Steam Controller: the stick unless a finger is on the left trackpad, the right trackpad as the right stick, u8 triggers")
    func controller() throws {
        let r = report(.controller, buttons: 0x20 | 0x1 | 0x800, fields: [(16, 16384), (18, 32767), (20, -32767), (22, 0)],
                       bytes: [(11, 255), (12, 51)])
        let controls = try #require(SteamReportControls.parse(r, layout: .controller))
        // Byte 11 is the left trigger's travel, not button bits.
        #expect(controls.buttons == PadButtons([.east, .rightTrigger, .dpadDown]))
        #expect(abs(controls.leftStick.x - 0.5) < 1e-4 && controls.leftStick.y == 1)
        #expect(controls.rightStick == StickPosition(x: -1, y: 0))
        #expect(controls.leftTrigger == 1 && abs(controls.rightTrigger - 0.2) < 1e-9)
        // A finger on the left trackpad: those fields are the pad's, the stick reads centred.
        let touched = report(.controller, buttons: SteamReportControls.leftPadFingerDown, fields: [(16, 20000), (18, 20000)])
        #expect(SteamReportControls.parse(touched, layout: .controller)?.leftStick == .centre)
    }

    @Test("other reports, the other pad's layout, and short reports carry no controls")
    func refused() {
        #expect(SteamReportControls.parse(report(.deck), layout: .controller) == nil)
        #expect(SteamReportControls.parse(Array(report(.deck).prefix(40)), layout: .deck) == nil)
        var status = report(.controller)
        status[2] = 0x04
        #expect(SteamReportControls.parse(status, layout: .controller) == nil)
        #expect(SteamReportControls.parse([], layout: .deck) == nil)
    }
}
