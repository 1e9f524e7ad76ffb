// Typed handles in the style of sokol_gfx: a pool slot plus a generation counter packed in 32 bits,
// so a handle to a destroyed resource (or of the wrong kind) is caught instead of reaching GL.

/// A compiled and linked shader program.
public struct ShaderID: Hashable, Sendable { public let raw: UInt32 }
/// A vertex buffer, optional index buffer and the vertex array that binds them.
public struct MeshID: Hashable, Sendable { public let raw: UInt32 }
/// A 2D texture.
public struct TextureID: Hashable, Sendable { public let raw: UInt32 }
/// An offscreen colour + depth framebuffer.
public struct RenderTargetID: Hashable, Sendable { public let raw: UInt32 }

/// Slots for one kind of resource. `raw` = generation << 16 | (slot + 1); 0 never names anything.
struct HandlePool<Resource> {
    private var slots: [Resource?] = []
    private var generations: [UInt16] = []
    private var free: [Int] = []

    mutating func insert(_ resource: Resource) -> UInt32 {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = resource
        } else {
            slot = slots.count
            slots.append(resource)
            generations.append(1)
        }
        return UInt32(generations[slot]) << 16 | UInt32(slot + 1)
    }

    /// The live resource `raw` names, or nil for a stale or foreign handle.
    func get(_ raw: UInt32) -> Resource? {
        guard let slot = slotIndex(raw) else { return nil }
        return slots[slot]
    }

    mutating func update(_ raw: UInt32, _ body: (inout Resource) -> Void) {
        guard let slot = slotIndex(raw), var r = slots[slot] else { return }
        body(&r)
        slots[slot] = r
    }

    /// Removes and returns the resource; its handle (and copies of it) go stale.
    mutating func remove(_ raw: UInt32) -> Resource? {
        guard let slot = slotIndex(raw), let r = slots[slot] else { return nil }
        slots[slot] = nil
        generations[slot] = generations[slot] &+ 1 == 0 ? 1 : generations[slot] &+ 1
        free.append(slot)
        return r
    }

    var all: [Resource] { slots.compactMap { $0 } }

    private func slotIndex(_ raw: UInt32) -> Int? {
        let slot = Int(raw & 0xFFFF) - 1
        guard slot >= 0, slot < slots.count, generations[slot] == UInt16(raw >> 16), slots[slot] != nil else { return nil }
        return slot
    }
}
