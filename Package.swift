// swift-tools-version: 6.0
//
// VisionTasks — MediaPipe Tasks Vision and ML Kit pose detection in Swift.
// Data flows one way: ModelFile → Inference → (Imaging) → VisionTasks → PoseDetection / CLI.
import PackageDescription

let linuxOnly = TargetDependencyCondition.when(platforms: [.linux, .android])

let package = Package(
    name: "VisionTasks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "VisionTasks", targets: ["VisionTasks"]),
        .library(name: "PoseDetection", targets: ["PoseDetection"]),
        .executable(name: "vision-tasks", targets: ["vision-tasks"]),
    ],
    targets: [
        // System C libraries (Linux). On Apple platforms Imaging uses ImageIO instead.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // The HTTP server under `vision-tasks serve` (Linux; the command reports it missing elsewhere).
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),

        // setjmp-guarded C wrappers around libjpeg/libpng (their errors longjmp, which must
        // never cross Swift frames). Compiled to stubs where the libraries are absent.
        .target(
            name: "CImagingSupport",
            dependencies: [
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
            ],
            linkerSettings: [
                .linkedLibrary("jpeg", .when(platforms: [.linux, .android])),
                .linkedLibrary("png16", .when(platforms: [.linux, .android])),
            ]),

        // file → model
        .target(
            name: "ModelFile",
            dependencies: ["CZlib"]),
        // SIMD micro-kernels (AVX-512 / AVX2+FMA chosen at run time, NEON, portable) and the
        // engine's fork-join thread pool
        .target(name: "CVisionKernels"),
        // model → engine
        .target(name: "Inference", dependencies: ["ModelFile", "CVisionKernels"]),
        // pixels → tensors, drawing, encoding
        .target(
            name: "Imaging",
            dependencies: [
                "CVisionKernels",
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
                .target(name: "CImagingSupport", condition: linuxOnly),
            ]),
        // task pipelines and the public MediaPipe-style API
        .target(name: "VisionTasks", dependencies: ["ModelFile", "Inference", "Imaging"]),
        // ML Kit-style pose API
        .target(name: "PoseDetection", dependencies: ["VisionTasks"]),
        // command-line tool: logic in a library so tests can drive it in-process
        .target(
            name: "VisionTasksCLI",
            dependencies: [
                "ModelFile", "Inference", "Imaging", "VisionTasks", "PoseDetection",
                .target(name: "CMicroHTTPD", condition: linuxOnly),
            ]),
        .executableTarget(name: "vision-tasks", dependencies: ["VisionTasksCLI"]),
        // The Swift snippets of ML Kit's iOS pose detection guide, built so that CI checks they
        // compile against PoseDetection (`swift run MLKitPoseGuide IMAGE` runs them).
        .executableTarget(
            name: "MLKitPoseGuide", dependencies: ["PoseDetection", "VisionTasks"], path: "Examples/MLKitPoseGuide"),
        // The Swift snippets of MediaPipe's iOS guides for the pose landmarker, the hand landmarker and
        // the object detector, likewise (`swift run PoseLandmarkerGuide IMAGE` and so on).
        .executableTarget(
            name: "PoseLandmarkerGuide", dependencies: ["VisionTasks"], path: "Examples/PoseLandmarkerGuide"),
        .executableTarget(
            name: "HandLandmarkerGuide", dependencies: ["VisionTasks"], path: "Examples/HandLandmarkerGuide"),
        .executableTarget(
            name: "ObjectDetectorGuide", dependencies: ["VisionTasks"], path: "Examples/ObjectDetectorGuide"),

        // Test helpers shared by the test targets (locating ../shared, reading references).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Test-only: counts malloc-family calls (glibc) to check that inference allocates nothing.
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(name: "ModelFileTests", dependencies: ["ModelFile", "TestSupport"]),
        .testTarget(
            name: "InferenceTests", dependencies: ["Inference", "ModelFile", "TestSupport", "AllocationCounter"],
            resources: [.copy("Golden")]),
        .testTarget(
            name: "ImagingTests", dependencies: ["Imaging", "TestSupport", "AllocationCounter"],
            resources: [.copy("Golden")]),
        .testTarget(
            name: "VisionTasksTests", dependencies: ["VisionTasks", "Imaging", "ModelFile", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "PoseDetectionTests", dependencies: ["PoseDetection", "VisionTasks", "Imaging", "TestSupport"]),
        .testTarget(
            name: "VisionTasksCLITests",
            dependencies: ["VisionTasksCLI", "ModelFile", "Inference", "Imaging", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
