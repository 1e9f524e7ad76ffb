import CLinuxInput
import Mapper
import MotionDevices

/// A physical pad's gamepad evdev node read into `PadControls`: buttons by position, sticks and
/// triggers scaled by the node's own axis ranges (EVIOCGABS), y turned up-positive, the d-pad from
/// a hat or from d-pad buttons. The codes are those hid-playstation, hid-sony and hid-nintendo
/// send (Documentation/input/gamepad.rst): BTN_SOUTH…BTN_WEST by position, BTN_TL/TR shoulders,
/// BTN_TL2/TR2 trigger clicks, ABS_Z/ABS_RZ trigger travel, BTN_Z hid-nintendo's Capture.
///
///     var decoder = PadControlsDecoder(ranges: PadControlsDecoder.playStationRanges)
///     if let controls = decoder.feed(event) { mapper.step(controls: controls, time: event.time) }
public struct PadControlsDecoder: Sendable {
    /// An axis's range as the node reports it (`input_absinfo` minimum and maximum).
    public struct AxisRange: Hashable, Sendable {
        public var minimum: Int32
        public var maximum: Int32
        public init(_ minimum: Int32, _ maximum: Int32) {
            self.minimum = minimum
            self.maximum = maximum
        }

        /// −1…1 about the range's middle.
        func centred(_ value: Int32) -> Double {
            let half = (Double(maximum) - Double(minimum)) / 2
            guard half > 0 else { return 0 }
            return min(1, max(-1, (Double(value) - Double(minimum) - half) / half))
        }

        /// 0…1 from the minimum.
        func travel(_ value: Int32) -> Double {
            let span = Double(maximum) - Double(minimum)
            guard span > 0 else { return 0 }
            return min(1, max(0, (Double(value) - Double(minimum)) / span))
        }
    }

    static let buttonCodes: [Int32: PadButton] = [
        BTN_SOUTH: .south, BTN_EAST: .east, BTN_NORTH: .north, BTN_WEST: .west,
        BTN_TL: .leftShoulder, BTN_TR: .rightShoulder, BTN_TL2: .leftTrigger, BTN_TR2: .rightTrigger,
        BTN_SELECT: .select, BTN_START: .start, BTN_MODE: .home, BTN_Z: .capture,
        BTN_THUMBL: .leftStick, BTN_THUMBR: .rightStick,
        BTN_DPAD_UP: .dpadUp, BTN_DPAD_DOWN: .dpadDown, BTN_DPAD_LEFT: .dpadLeft, BTN_DPAD_RIGHT: .dpadRight,
    ]
    /// The axes read, by ABS code.
    public static let axisCodes: [Int32] = [ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ, ABS_HAT0X, ABS_HAT0Y]

    /// hid-playstation's ranges (sticks and triggers 0…255, hat −1…1), for recordings without ioctls.
    public static let playStationRanges: [Int32: AxisRange] = [
        ABS_X: AxisRange(0, 255), ABS_Y: AxisRange(0, 255), ABS_RX: AxisRange(0, 255), ABS_RY: AxisRange(0, 255),
        ABS_Z: AxisRange(0, 255), ABS_RZ: AxisRange(0, 255), ABS_HAT0X: AxisRange(-1, 1), ABS_HAT0Y: AxisRange(-1, 1),
    ]

    public var ranges: [Int32: AxisRange]
    /// The controls as of the last SYN_REPORT.
    public private(set) var controls = PadControls.idle
    private var pending = PadControls.idle
    private var hatX: Int32 = 0
    private var hatY: Int32 = 0
    private var dpadButtons: PadButtons = []
    /// The kernel dropped events (SYN_DROPPED): what follows up to the next SYN_REPORT is partial;
    /// the reader reads the node's whole state again (`resync`).
    public private(set) var needsResync = false

    public init(ranges: [Int32: AxisRange]) { self.ranges = ranges }

    /// Takes one event; returns the new controls at a SYN_REPORT that changed them.
    public mutating func feed(_ event: InputEvent) -> PadControls? {
        let code = Int32(event.code)
        switch Int32(event.type) {
        case EV_SYN where code == SYN_DROPPED:
            needsResync = true
        case EV_SYN where code == SYN_REPORT:
            if needsResync { return nil }
            pending.buttons = pending.buttons.subtracting(Self.dpad).union(dpadButtons).union(hatButtons)
            guard pending != controls else { return nil }
            controls = pending
            return controls
        case EV_KEY where !needsResync:
            guard let button = Self.buttonCodes[code] else { return nil }
            if Self.dpad.contains(PadButtons(button)) { dpadButtons.set(button, event.value != 0) } else { pending.buttons.set(button, event.value != 0) }
        case EV_ABS where !needsResync:
            set(axis: code, event.value)
        default:
            break
        }
        return nil
    }

    /// The node's whole state after a drop or on opening: the keys held (EVIOCGKEY) and each
    /// axis's value (EVIOCGABS). Returns the controls if they changed.
    public mutating func resync(keysHeld: Set<Int32>, axisValues: [Int32: Int32]) -> PadControls? {
        needsResync = false
        pending.buttons = []
        dpadButtons = []
        for code in keysHeld { if let button = Self.buttonCodes[code] { Self.dpad.contains(PadButtons(button)) ? dpadButtons.set(button, true) : pending.buttons.set(button, true) } }
        for (code, value) in axisValues { set(axis: code, value) }
        return feed(InputEvent(time: 0, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0))
    }

    private static let dpad = PadButtons([.dpadUp, .dpadDown, .dpadLeft, .dpadRight])

    private var hatButtons: PadButtons {
        var buttons = PadButtons()
        buttons.set(.dpadLeft, hatX < 0)
        buttons.set(.dpadRight, hatX > 0)
        buttons.set(.dpadUp, hatY < 0)
        buttons.set(.dpadDown, hatY > 0)
        return buttons
    }

    private mutating func set(axis code: Int32, _ value: Int32) {
        guard let range = ranges[code] else { return }
        switch code {
        // evdev's sticks read down positive; PadControls' up.
        case ABS_X: pending.leftStick.x = range.centred(value)
        case ABS_Y: pending.leftStick.y = -range.centred(value)
        case ABS_RX: pending.rightStick.x = range.centred(value)
        case ABS_RY: pending.rightStick.y = -range.centred(value)
        case ABS_Z: pending.leftTrigger = range.travel(value)
        case ABS_RZ: pending.rightTrigger = range.travel(value)
        case ABS_HAT0X: hatX = value
        case ABS_HAT0Y: hatY = value
        default: break
        }
    }
}
