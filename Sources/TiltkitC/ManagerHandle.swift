import CTiltkit
import Foundation
import Motion
import MotionDevices
import MotionSDL
import MotionSources

/// What a `tk_manager *` points to: one `MotionManager`, the C handler pushed to, and the
/// last error as a C string owned here (so `tk_manager_last_error` hands out a stable pointer).
/// Errors are recorded only by calls on the caller's thread, never by the source's thread, so
/// that pointer cannot be freed under a caller reading it.
final class ManagerHandle: @unchecked Sendable {
    typealias CHandler = @convention(c) (UnsafePointer<tk_device_motion>?, UnsafeMutableRawPointer?) -> Void

    let manager: MotionManager
    private let lock = NSLock()
    private var handler: CHandler?
    private var context: UnsafeMutableRawPointer?
    private var lastError: UnsafeMutablePointer<CChar> = strdup("")
    private var pushFailure: MotionManagerError?

    init(source: any MotionSource) {
        manager = MotionManager(source: source)
    }

    /// Runs pushed blocks on the source's thread at once: the C handler sees each sample as it is fused.
    private struct InlineQueue: MotionHandlerQueue {
        func enqueue(_ work: @escaping @Sendable () -> Void) { work() }
    }

    func setHandler(_ handler: CHandler?, context: UnsafeMutableRawPointer?) {
        lock.withLock {
            self.handler = handler
            self.context = context
        }
    }

    /// Always started as push, to this handle: the pull slot fills either way, and a C handler
    /// set later needs no restart. A failure to start arrives inline, before this returns.
    func startDeviceMotion(interval: Double, frame: AttitudeReferenceFrame) -> Bool {
        guard interval.isFinite, interval >= 0 else { return fail("interval_s must be 0 or more seconds, got \(interval)") }
        guard manager.availableAttitudeReferenceFrames.contains(frame) else {
            return fail(MotionManagerError.referenceFrameUnavailable(frame).description)
        }
        lock.withLock { pushFailure = nil }
        manager.deviceMotionUpdateInterval = interval
        manager.startDeviceMotionUpdates(using: frame, to: InlineQueue()) { [weak self] motion, error in
            self?.deliver(motion, error)
        }
        if let failure = lock.withLock({ pushFailure }) { return fail(failure.description) }
        return true
    }

    private func deliver(_ motion: DeviceMotion?, _ error: (any Error)?) {
        guard let motion else {
            let failure = (error as? MotionManagerError) ?? .sourceFailedToStart(String(describing: error))
            lock.withLock { pushFailure = failure }
            return
        }
        // Called under the lock: once tk_manager_set_device_motion_handler returns, the old
        // handler has finished and is never called again, so its context may be freed.
        lock.withLock {
            guard let handler else { return }
            var out = tk_device_motion(motion)
            handler(&out, context)
        }
    }

    @discardableResult
    func fail(_ message: String) -> Bool {
        record(message)
        return false
    }

    func clearError() { record("") }

    private func record(_ message: String) {
        free(lastError)
        lastError = strdup(message)
    }

    /// Valid until the next call on this manager that records (success clears it).
    var lastErrorPointer: UnsafePointer<CChar> { UnsafePointer(lastError) }

    deinit { free(lastError) }

    /// The SDL controller behind this manager's source, if it is one.
    var sdlController: SDLControllerSource? {
        GyroCalibratedSource.unwrapped(manager.source) as? SDLControllerSource
    }
}
