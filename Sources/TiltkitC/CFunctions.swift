import CSDL2
import CTiltkit
import Foundation
import Motion
import MotionSources

// The functions of tiltkit.h. Each checks its arguments and catches every Swift error: nothing
// is printed and nothing unwinds into C. A `tk_manager *` is a retained `ManagerHandle`.

private func handle(_ pointer: OpaquePointer?) -> ManagerHandle? {
    pointer.map { Unmanaged<ManagerHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
}

/// `message` into the caller's buffer, cut to fit and always terminated.
private func copy(_ message: String, to buffer: UnsafeMutablePointer<CChar>?, length: Int) {
    guard let buffer, length > 0 else { return }
    let bytes = Array(message.utf8.prefix(length - 1))
    for (i, byte) in bytes.enumerated() { buffer[i] = CChar(bitPattern: byte) }
    buffer[bytes.count] = 0
}

@_cdecl("tk_manager_create")
public func tkManagerCreate(_ sourceSpec: UnsafePointer<CChar>?, _ errorBuffer: UnsafeMutablePointer<CChar>?,
                            _ errorLength: Int) -> OpaquePointer? {
    let text = sourceSpec.map { String(cString: $0) } ?? "auto"
    do {
        let source = try SourceSpec(parsing: text.isEmpty ? "auto" : text).makeSource()
        copy("", to: errorBuffer, length: errorLength)
        return OpaquePointer(Unmanaged.passRetained(ManagerHandle(source: source)).toOpaque())
    } catch {
        copy("tiltkit: \(text): \(error)", to: errorBuffer, length: errorLength)
        return nil
    }
}

@_cdecl("tk_manager_start_device_motion")
public func tkManagerStartDeviceMotion(_ manager: OpaquePointer?, _ interval: Double,
                                       _ frame: UnsafePointer<CChar>?) -> Int32 {
    guard let handle = handle(manager) else { return -1 }
    let name = frame.map { String(cString: $0) } ?? "XArbitraryZVertical"
    guard let parsed = AttitudeReferenceFrame(coreMotionName: name) else {
        handle.fail("unknown reference frame '\(name)' (known: \(AttitudeReferenceFrame.coreMotionNames.joined(separator: ", ")))")
        return -1
    }
    guard handle.startDeviceMotion(interval: interval, frame: parsed) else { return -1 }
    handle.clearError()
    return 0
}

@_cdecl("tk_manager_latest_device_motion")
public func tkManagerLatestDeviceMotion(_ manager: OpaquePointer?, _ out: UnsafeMutablePointer<tk_device_motion>?) -> Int32 {
    guard let handle = handle(manager), let out else { return -1 }
    guard let motion = handle.manager.deviceMotion else { return 0 }
    out.pointee = tk_device_motion(motion)
    return 1
}

@_cdecl("tk_manager_set_device_motion_handler")
public func tkManagerSetDeviceMotionHandler(_ manager: OpaquePointer?,
                                            _ handler: (@convention(c) (UnsafePointer<tk_device_motion>?, UnsafeMutableRawPointer?) -> Void)?,
                                            _ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let handle = handle(manager) else { return -1 }
    handle.setHandler(handler, context: context)
    return 0
}

@_cdecl("tk_manager_set_location")
public func tkManagerSetLocation(_ manager: OpaquePointer?, _ latitude: Double, _ longitude: Double,
                                 _ altitudeMetres: Double) -> Int32 {
    guard let handle = handle(manager) else { return -1 }
    guard (-90...90).contains(latitude), (-180...360).contains(longitude), altitudeMetres.isFinite else {
        handle.fail("location out of range: latitude \(latitude) (-90...90), longitude \(longitude) (-180...360), altitude \(altitudeMetres) m")
        return -1
    }
    handle.manager.location = GeodeticLocation(latitude: latitude, longitude: longitude,
                                               altitude: altitudeMetres / 1000, date: Date())
    handle.clearError()
    return 0
}

@_cdecl("tk_manager_reset_reference_attitude")
public func tkManagerResetReferenceAttitude(_ manager: OpaquePointer?) {
    handle(manager)?.manager.resetReferenceAttitude()
}

@_cdecl("tk_manager_handle_sdl_event")
public func tkManagerHandleSDLEvent(_ manager: OpaquePointer?, _ event: UnsafeRawPointer?) -> Int32 {
    guard let controller = handle(manager)?.sdlController, let event else { return 0 }
    return controller.handle(event: event.load(as: SDL_Event.self)) ? 1 : 0
}

private let nullManagerMessage: StaticString = "tiltkit: NULL manager"

@_cdecl("tk_manager_last_error")
public func tkManagerLastError(_ manager: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let handle = handle(manager) else {
        return UnsafeRawPointer(nullManagerMessage.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    return handle.lastErrorPointer
}

@_cdecl("tk_manager_destroy")
public func tkManagerDestroy(_ manager: OpaquePointer?) {
    guard let manager else { return }
    let handle = Unmanaged<ManagerHandle>.fromOpaque(UnsafeRawPointer(manager))
    handle.takeUnretainedValue().manager.stopDeviceMotionUpdates()
    handle.release()
}
