import VisionTasks

#if canImport(UIKit)
    import UIKit
#endif
#if canImport(CoreMedia)
    import CoreMedia
#endif

/// An image for the ML Kit-style detectors (ML Kit's `VisionImage`), with a settable
/// ``orientation``.
///
/// Unlike ML Kit, every orientation works, mirrored ones included, so a front camera's
/// `.leftMirrored` frames give landmarks on the correct (true) side of the body.
///
/// On UIKit platforms ``orientation`` is a `UIImage.Orientation`, as in ML Kit, so the guide's
/// `visionImage.orientation = image.imageOrientation` compiles unchanged; elsewhere it is
/// VisionTasks' `ImageOrientation`, which has the same cases.
public final class VisionImage: @unchecked Sendable {
    // @unchecked: `orientation` is a plain value; set it before handing the image to a detector.
    #if canImport(UIKit)
        /// How the stored pixels must be turned to show the picture upright; `.up` by default.
        public var orientation: UIImage.Orientation
    #else
        /// How the stored pixels must be turned to show the picture upright; `.up` by default.
        public var orientation: ImageOrientation
    #endif

    /// ``orientation`` as VisionTasks' type.
    var imageOrientation: ImageOrientation {
        #if canImport(UIKit)
            ImageOrientation(orientation)
        #else
            orientation
        #endif
    }

    private enum Source {
        case image(MPImage)
        #if canImport(UIKit)
            case uiImage(UIImage)
        #endif
        #if canImport(CoreMedia)
            case sampleBuffer(CMSampleBuffer)
        #endif
    }

    private let source: Source

    /// Wraps an `MPImage`; the image's own orientation becomes this image's ``orientation``.
    public init(image: MPImage) {
        source = .image(image)
        #if canImport(UIKit)
            orientation = image.orientation.uiImageOrientation
        #else
            orientation = image.orientation
        #endif
    }

    #if canImport(UIKit)
        /// Wraps a `UIImage`, as ML Kit does (orientation `.up` unless you set it).
        public init(image: UIImage) {
            source = .uiImage(image)
            orientation = .up
        }
    #endif

    #if canImport(CoreMedia)
        /// Wraps a camera frame, as ML Kit does (orientation `.up` unless you set it).
        public init(buffer: CMSampleBuffer) {
            source = .sampleBuffer(buffer)
            orientation = .up
        }
    #endif

    /// The pixels as an `MPImage` carrying the current ``orientation``.
    func mpImage() throws -> MPImage {
        switch source {
        case .image(let image):
            return image.orientation == imageOrientation ? image : image.withOrientation(imageOrientation)
        #if canImport(UIKit)
            case .uiImage(let image):
                return try MPImage(uiImage: image, orientation: imageOrientation)
        #endif
        #if canImport(CoreMedia)
            case .sampleBuffer(let buffer):
                return try MPImage(sampleBuffer: buffer, orientation: imageOrientation)
        #endif
        }
    }
}
