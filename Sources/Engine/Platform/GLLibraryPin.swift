import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the OpenGL driver's libraries mapped for the rest of the process.
///
/// Closing SDL's video subsystem unloads EGL or GL and, with them, Mesa's driver, while threads the
/// driver started (llvmpipe's rasterisers) can still run its code as they exit: a jump into an
/// unmapped module, seen as rare crashes right after a rendering test. Every GL library mapped once
/// a context exists is reopened with `RTLD_NODELETE` (and never closed), so a later window reuses it.
enum GLLibraryPin {
    /// Once per process, after the first context is made current.
    static let pinned: Void = {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        var seen = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard isGLLibrary(path), seen.insert(path).inserted else { continue }
            _ = dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)
        }
    }()

    /// Mesa's and glvnd's libraries, and the DRI/Gallium driver with its LLVM.
    static func isGLLibrary(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return path.contains("/dri/")
            || ["libGL", "libEGL", "libGLX", "libGLdispatch", "libglapi", "libgallium", "libLLVM", "libgbm"]
                .contains { name.hasPrefix($0) }
    }
}
