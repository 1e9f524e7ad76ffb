import CLinuxInput
import MotionDevices

/// A pad's touchpad evdev node (hid-playstation's "Touchpad": multi-touch protocol B with two
/// slots, INPUT_MT_POINTER, its click as BTN_LEFT; Documentation/input/multi-touch-protocol.rst)
/// read into the contacts down and the click, at each SYN_REPORT.
///
///     var decoder = TouchpadDecoder()
///     if let state = decoder.feed(event) { print(state.contacts, state.clicked) }
public struct TouchpadDecoder: Sendable {
    /// One finger on the pad: the kernel's tracking id (new for each touch) and its position in
    /// the pad's units (ABS_MT_POSITION_X/Y: a DualShock 4's 0…1919 × 0…941, a DualSense's
    /// 0…1919 × 0…1079).
    public struct Contact: Hashable, Sendable {
        public var id: Int32
        public var x: Int32
        public var y: Int32
        public init(id: Int32, x: Int32, y: Int32) { self.id = id; self.x = x; self.y = y }
    }

    public struct State: Hashable, Sendable {
        /// The contacts down, by slot (at most `slots`).
        public var contacts: [Contact] = []
        /// The pad pressed down (its click).
        public var clicked = false
        public init(contacts: [Contact] = [], clicked: Bool = false) { self.contacts = contacts; self.clicked = clicked }
    }

    /// Slots tracked (the PlayStation pads' two).
    public static let slots = 2

    /// The state as of the last SYN_REPORT.
    public private(set) var state = State()
    private var slot = 0
    private var tracking = [Int32](repeating: -1, count: slots)
    private var x = [Int32](repeating: 0, count: slots)
    private var y = [Int32](repeating: 0, count: slots)
    private var clicked = false
    private var dropped = false

    public init() {}

    /// What the node holds now, from its ioctls: an evdev node sends only changes, so the touches
    /// down when it opens (or across a SYN_DROPPED) are known only this way.
    public struct Snapshot: Hashable, Sendable {
        /// ABS_MT_SLOT's value: the slot later events without a slot of their own refer to.
        public var slot: Int
        /// ABS_MT_TRACKING_ID, ABS_MT_POSITION_X and _Y by slot (−1: no contact).
        public var tracking: [Int32]
        public var x: [Int32]
        public var y: [Int32]
        public var clicked: Bool
        public init(slot: Int, tracking: [Int32], x: [Int32], y: [Int32], clicked: Bool) {
            self.slot = slot; self.tracking = tracking; self.x = x; self.y = y; self.clicked = clicked
        }
    }

    /// Takes the node's whole state; returns it when it differs from the last delivered.
    public mutating func load(_ snapshot: Snapshot) -> State? {
        slot = snapshot.slot
        for s in 0..<Self.slots {
            tracking[s] = s < snapshot.tracking.count ? snapshot.tracking[s] : -1
            x[s] = s < snapshot.x.count ? snapshot.x[s] : 0
            y[s] = s < snapshot.y.count ? snapshot.y[s] : 0
        }
        clicked = snapshot.clicked
        dropped = false
        return report()
    }

    /// Takes one event; returns the new state at a SYN_REPORT that changed it. After SYN_DROPPED
    /// the contacts are forgotten (they return with the next touch), as the events between were lost.
    public mutating func feed(_ event: InputEvent) -> State? {
        let code = Int32(event.code)
        switch Int32(event.type) {
        case EV_SYN where code == SYN_DROPPED:
            dropped = true
        case EV_SYN where code == SYN_REPORT:
            if dropped {
                dropped = false
                tracking = [Int32](repeating: -1, count: Self.slots)
                clicked = false
            }
            return report()
        case EV_ABS where code == ABS_MT_SLOT:
            slot = Int(event.value)
        case EV_ABS where (0..<Self.slots).contains(slot):
            switch code {
            case ABS_MT_TRACKING_ID: tracking[slot] = event.value
            case ABS_MT_POSITION_X: x[slot] = event.value
            case ABS_MT_POSITION_Y: y[slot] = event.value
            default: break
            }
        case EV_KEY where code == BTN_LEFT:
            clicked = event.value != 0
        default:
            break
        }
        return nil
    }

    /// The state now; nil when it is the one last returned.
    private mutating func report() -> State? {
        var next = State(clicked: clicked)
        for s in 0..<Self.slots where tracking[s] >= 0 { next.contacts.append(Contact(id: tracking[s], x: x[s], y: y[s])) }
        guard next != state else { return nil }
        state = next
        return state
    }
}
