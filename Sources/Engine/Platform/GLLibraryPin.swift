import Foundation
import ProcessMaps
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the OpenGL driver's libraries mapped for the rest of the process.
///
/// Closing the last GL window makes SDL unload EGL (libEGL, and with it libEGL_mesa), whose
/// thread-local destructors still run later, when a thread that had a context current exits (a
/// dispatch worker retiring after a rendering test), and whose driver threads can still be running
/// its code: a jump into an unmapped module, seen as rare crashes of the test process. Every GL
/// library mapped once a context exists is reopened with `RTLD_NODELETE` (and never closed), so it
/// stays, and a later window reuses it. This runs at every context (a process may make its first one
/// through GLX and a later one through EGL) and reads the whole of `/proc/self/maps`: a size-0 proc
/// file read the usual way stops after its first 4 kB, which once left EGL out of the pin.
enum GLLibraryPin {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pinned = Set<String>()

    /// After a context is made current.
    static func pinMappedLibraries() {
        lock.lock()
        defer { lock.unlock() }
        for line in ProcessMaps.read().split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard isGLLibrary(path), !pinned.contains(path) else { continue }
            if dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != nil { pinned.insert(path) }
        }
    }

    /// Mesa's and glvnd's libraries, and the DRI/Gallium driver with its LLVM.
    static func isGLLibrary(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return path.contains("/dri/")
            || ["libGL", "libEGL", "libGLX", "libGLdispatch", "libglapi", "libgallium", "libLLVM", "libgbm"]
                .contains { name.hasPrefix($0) }
    }
}
