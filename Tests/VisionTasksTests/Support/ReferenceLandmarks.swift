import TestSupport

@testable import VisionTasks

extension ReferenceLandmark {
    /// The reference landmark as this package's type.
    var normalized: NormalizedLandmark {
        NormalizedLandmark(x: x, y: y, z: z, visibility: visibility, presence: presence)
    }
}

/// Prints why a reference-based test does nothing.
func skipWithoutSharedData(_ what: String) {
    print("skipping: shared reference data not found (\(what))")
}
