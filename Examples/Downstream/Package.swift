// swift-tools-version:6.0
// A package of someone else's that builds on Tiltkit: by path here, by URL in yours
// (.package(url: "https://…/tiltkit", from: "…")). CI builds and runs it (scripts/test-downstream.sh).
import PackageDescription

let package = Package(
    name: "Downstream",
    dependencies: [.package(name: "Tiltkit", path: "../..")],
    targets: [
        .executableTarget(name: "Downstream", dependencies: [
            .product(name: "Motion", package: "Tiltkit"),
            .product(name: "MotionSources", package: "Tiltkit"),
        ]),
    ]
)
