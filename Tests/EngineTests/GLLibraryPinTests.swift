import Foundation
import ProcessMaps
import Testing
@testable import Engine

/// The GL driver's libraries outlive the last window: closing it must not unload EGL and Mesa.
@Suite(.serialized) struct GLLibraryPinTests {
    private static func glLibraries() -> Set<String> {
        Set(ProcessMaps.read().split(separator: "\n").compactMap { line -> String? in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            let path = String(line[slash...])
            return GLLibraryPin.isGLLibrary(path) ? path : nil
        })
    }

    @Test("the whole of /proc/self/maps is read, not its first 4 kB")
    func readsAllOfTheMaps() {
        let maps = ProcessMaps.read()
        #expect(maps.utf8.count > 4096, "a Swift test process maps far more than a page of lines")
        #expect(maps.contains("libswiftCore.so") && maps.contains("libc.so"))
    }

    @Test("every GL library mapped while a headless window is open is still mapped after it closes")
    func glLibrariesStayAfterTheLastWindowCloses() throws {
        let window = try Window(WindowDesc(size: PixelSize(width: 64, height: 64), headless: true))
        let whileOpen = Self.glLibraries()
        window.close()
        #expect(whileOpen.contains { $0.contains("libEGL") || $0.contains("libGLX") }, "\(whileOpen)")
        #expect(whileOpen.isSubset(of: Self.glLibraries()), "unloaded: \(whileOpen.subtracting(Self.glLibraries()))")
    }
}
