// swift-tools-version:6.0
import PackageDescription

// Dependencies point inward: tiltkit, TiltkitC → Demo/Benchmarks/DSUServer/MotionSources/MapperDevices → Engine/CartGame/MotionDevices/MotionSDL/MotionEvaluation/DSU/Mapper → Motion.
// Motion is pure Swift (no SDL, no GL) so its tests run anywhere.
let package = Package(
    name: "Tiltkit",
    products: [
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "MotionDevices", targets: ["MotionDevices"]),
        .library(name: "MotionSDL", targets: ["MotionSDL"]),
        // `--source` specs ("auto", "trace:PATH", "hidraw:/dev/hidraw3", "sdl"...) to sources.
        .library(name: "MotionSources", targets: ["MotionSources"]),
        // The C API (Sources/CTiltkit/tiltkit.h); scripts/install-c-library.sh installs it as libtiltkit.so.
        .library(name: "TiltkitC", type: .dynamic, targets: ["TiltkitC"]),
        .executable(name: "tiltkit", targets: ["tiltkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        // `swift package generate-documentation --target Motion` (Sources/Motion/Motion.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `tiltkit map` profiles (Assets/profiles/*.toml).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Pure core: math, motion types, trace I/O, fusion, motion manager.
        .target(name: "Motion"),
        // Harness, not shipped: BROAD's error metric, its trials and peers, agreement with Core Motion's gravity.
        .target(name: "MotionEvaluation", dependencies: ["Motion"]),

        // Thin C shims for kernel headers and macros Swift cannot import (ioctl codes).
        .target(name: "CLinuxInput"),
        // Counts heap allocations per thread (interposes malloc) so tests and benchmarks can prove a path allocates
        // nothing. Opt-in, TILTKIT_ALLOCATION_COUNTER=1 (scripts/test.sh sets it): sanitizers interpose malloc themselves.
        .target(name: "CAllocationCounter", cSettings: Context.environment["TILTKIT_ALLOCATION_COUNTER"] == "1"
                    ? [.define("TILTKIT_ALLOCATION_COUNTER")] : []),
        // Linux device sources: hidraw gamepads, IIO, evdev, hid-recorder replays.
        .target(name: "MotionDevices", dependencies: ["Motion", "CLinuxInput"]),

        // The DSU ("cemuhook") protocol for emulators, pure: packets, CRC, axes, subscriptions.
        .target(name: "DSU", dependencies: ["Motion"]),
        // The DSU server on a POSIX UDP socket, feeding `DSU` from motion sources (and a pad's `PadControls`).
        .target(name: "DSUServer", dependencies: ["DSU", "Motion", "Mapper"]),

        // System libraries. Never name a Swift module SDL2, SDL or GL.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CGL", pkgConfig: "gl", providers: [.apt(["libgl-dev"])]),
        .systemLibrary(name: "CSDL2Image", pkgConfig: "SDL2_image", providers: [.apt(["libsdl2-image-dev"])]),

        // SDL game-controller sensors as a motion source.
        .target(name: "MotionSDL", dependencies: ["Motion", "MotionDevices", "CLinuxInput", "CSDL2"]),
        // One reading of `--source` for the CLI, the C API and other packages. Its resource bundle carries the trace
        // "auto" replays without a device (Assets/traces/xio links to it), so a package that depends on Tiltkit has it too.
        .target(name: "MotionSources", dependencies: ["Motion", "MotionDevices", "MotionSDL", "ProcessMaps"],
                resources: [.copy("Resources/traces")]),
        // /proc/self/maps read whole: the engine and the asset locator both look up mapped files.
        .target(name: "ProcessMaps"),
        // tiltkit.h, for the C API's Swift side to build against the very types C programs see.
        .systemLibrary(name: "CTiltkit"),
        // The C API: tiltkit.h's functions, `@_cdecl`, over MotionManager and MotionSources.
        .target(name: "TiltkitC", dependencies: ["CTiltkit", "CSDL2", "Motion", "MotionDevices", "MotionSDL", "MotionSources"]),
        // Window, GL context, typed GL handles, shaders, meshes, camera, text, screenshots.
        .target(name: "Engine", dependencies: ["CSDL2", "CSDL2Image", "CGL", "ProcessMaps"]),
        // Pad to virtual mouse and pad, pure: gyro aim, sticks, buttons, profiles (the platform edge writes uinput).
        .target(name: "Mapper", dependencies: ["Motion", .product(name: "TOMLKit", package: "TOMLKit")]),
        // The mapper's platform edge: uinput's virtual mouse and pad, the physical pad's controls and grabs (evdev).
        .target(name: "MapperDevices", dependencies: ["Mapper", "Motion", "MotionDevices", "CLinuxInput"]),
        // The cart game's rules on a fixed tick and the motion-to-command mapping: pure.
        .target(name: "CartGame", dependencies: ["Motion"]),
        // Scenes: the teapot and the cart game, drawn with Engine.
        .target(name: "Demo", dependencies: ["Engine", "Motion", "CartGame", "MotionDevices", "MotionSDL"]),
        // Benchmarks behind `tiltkit bench`.
        .target(name: "Benchmarks", dependencies: [
            "Motion", "MotionEvaluation", "Engine", "CGL", "CartGame", "Demo", "CAllocationCounter",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),

        .executableTarget(name: "tiltkit", dependencies: [
            "Motion", "MotionDevices", "MotionSDL", "MotionSources", "Engine", "Demo", "CartGame", "Benchmarks", "DSU", "DSUServer", "MotionEvaluation",
            "Mapper", "MapperDevices",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Examples/: one small program per feature, run by the tests (tiltkitTests/ExamplesTests).
        .executableTarget(name: "PullInRenderLoop", dependencies: ["Motion", "MotionSources"], path: "Examples/PullInRenderLoop"),
        .executableTarget(name: "PushEverySample", dependencies: ["Motion", "MotionSources"], path: "Examples/PushEverySample"),
        .executableTarget(name: "ReferenceFrames", dependencies: ["Motion", "MotionSources"], path: "Examples/ReferenceFrames"),
        .executableTarget(name: "ResetReference", dependencies: ["Motion", "MotionSources"], path: "Examples/ResetReference"),
        .executableTarget(name: "AccelerometerOnly", dependencies: ["Motion", "MotionSources"], path: "Examples/AccelerometerOnly"),
        .executableTarget(name: "ShakeAndOrientation", dependencies: ["Motion", "MotionSources"], path: "Examples/ShakeAndOrientation"),
        .executableTarget(name: "RecordAndReplay", dependencies: ["Motion", "MotionSources"], path: "Examples/RecordAndReplay"),
        .executableTarget(name: "LivePad", dependencies: ["Motion", "MotionDevices", "MotionSources"], path: "Examples/LivePad"),
        .executableTarget(name: "SDLSensors", dependencies: ["Motion", "MotionSDL", "CSDL2"], path: "Examples/SDLSensors"),

        .target(name: "TestSupport", dependencies: ["Motion", "CartGame"], path: "Tests/TestSupport"),
        .testTarget(name: "MotionTests", dependencies: ["Motion", "MotionEvaluation", "TestSupport", "CAllocationCounter"],
                    exclude: ["Fixtures"]),
        // Fixtures/ holds the report generator script and its output, read by path.
        .testTarget(name: "MotionDevicesTests", dependencies: ["MotionDevices", "Motion", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DSUTests", dependencies: ["DSU", "DSUServer", "Mapper", "Motion", "MotionDevices", "TestSupport"]),
        .testTarget(name: "MotionSDLTests", dependencies: ["MotionSDL", "Motion", "MotionDevices", "CSDL2"]),
        .testTarget(name: "MapperTests", dependencies: ["Mapper", "Motion", "TestSupport", "CAllocationCounter"]),
        .testTarget(name: "MapperDevicesTests", dependencies: ["MapperDevices", "Mapper", "MotionDevices", "Motion", "TestSupport"]),
        .testTarget(name: "CartGameTests", dependencies: ["CartGame", "Motion", "TestSupport"]),
        .testTarget(name: "EngineTests", dependencies: ["Engine", "ProcessMaps"]),
        .testTarget(name: "DemoTests", dependencies: ["Demo", "Engine", "CartGame", "Motion", "MotionEvaluation", "TestSupport"]),
        // The command-line tool, run as a process (its commands' output formats).
        .testTarget(name: "tiltkitTests", dependencies: ["Motion", "Mapper", "Engine", "TestSupport"]),
        .testTarget(name: "BenchmarksTests", dependencies: [
            "Benchmarks", "Engine", "Motion", "TestSupport", .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
