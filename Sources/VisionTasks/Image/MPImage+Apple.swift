#if canImport(UIKit) || canImport(CoreVideo) || canImport(CoreMedia)
    import Foundation
    import Imaging
    #if canImport(UIKit)
        import UIKit
    #endif
    #if canImport(CoreImage)
        import CoreImage
    #endif
    #if canImport(CoreVideo)
        import CoreVideo
    #endif
    #if canImport(CoreMedia)
        import CoreMedia
    #endif

    /// The Apple object an ``MPImage`` keeps for its `image`, `pixelBuffer` or `sampleBuffer`
    /// property.
    struct AppleImageSource {
        #if canImport(UIKit)
            var image: UIImage? = nil
        #endif
        #if canImport(CoreVideo)
            var pixelBuffer: CVPixelBuffer? = nil
        #endif
        #if canImport(CoreMedia)
            var sampleBuffer: CMSampleBuffer? = nil
        #endif
    }

    #if canImport(UIKit)
        extension MPImage {
            /// An image from a `UIImage`, shown with the `UIImage`'s own `imageOrientation`.
            ///
            /// The pixels are read the way MediaPipe's iOS SDK reads them
            /// (MP:mediapipe/tasks/ios/vision/core/utils/sources/MPPImage+Utils.mm): the `CGImage`
            /// (or the `CIImage` rendered to one) drawn into RGBA, un-premultiplied, alpha dropped.
            /// ``width`` and ``height`` are `size × scale`.
            ///
            /// - Throws: ``TasksError/invalidImage(_:)`` when the image has neither a `CGImage` nor a
            ///   `CIImage`.
            public convenience init(uiImage: UIImage) throws(TasksError) {
                try self.init(uiImage: uiImage, orientation: ImageOrientation(uiImage.imageOrientation))
            }

            /// An image from a `UIImage`, shown with `orientation` instead of the `UIImage`'s own.
            ///
            /// - Throws: ``TasksError/invalidImage(_:)`` as ``init(uiImage:)``.
            public convenience init(uiImage: UIImage, orientation: ImageOrientation) throws(TasksError) {
                var cgImage = uiImage.cgImage
                #if canImport(CoreImage)
                    if cgImage == nil, let ciImage = uiImage.ciImage {
                        cgImage = CIContext().createCGImage(ciImage, from: ciImage.extent)
                    }
                #endif
                guard let cgImage else {
                    throw TasksError.invalidImage(
                        "Image does not have a valid underlying CGImage. image.CGImage must be non nil.")
                }
                let bitmap = try MPImage.decode { try CoreGraphicsBitmap.bitmap(from: cgImage) }
                let size = (
                    Int((uiImage.size.width * uiImage.scale).rounded()),
                    Int((uiImage.size.height * uiImage.scale).rounded())
                )
                self.init(
                    bitmap: bitmap, orientation: orientation, sourceType: .image, reportedSize: size,
                    appleSource: AppleImageSource(image: uiImage))
            }

            /// ``init(uiImage:orientation:)`` with a `UIImage.Orientation`.
            @_disfavoredOverload
            public convenience init(uiImage: UIImage, orientation: UIImage.Orientation) throws(TasksError) {
                try self.init(uiImage: uiImage, orientation: ImageOrientation(orientation))
            }
        }

        extension ImageOrientation {
            /// The orientation with the same meaning as a `UIImage.Orientation`.
            public init(_ orientation: UIImage.Orientation) {
                self = ImageOrientation(rawValue: orientation.rawValue) ?? .up
            }

            /// The `UIImage.Orientation` with the same meaning.
            public var uiImageOrientation: UIImage.Orientation {
                UIImage.Orientation(rawValue: rawValue) ?? .up
            }
        }
    #endif

    #if canImport(CoreVideo)
        extension MPImage {
            /// An image from a pixel buffer, shown upright (`.up`).
            ///
            /// Only `kCVPixelFormatType_32BGRA` buffers are accepted; the pixels are copied and alpha
            /// is ignored.
            ///
            /// - Throws: ``TasksError/invalidImage(_:)`` for any other pixel format or an unreadable
            ///   buffer.
            public convenience init(pixelBuffer: CVPixelBuffer) throws(TasksError) {
                try self.init(pixelBuffer: pixelBuffer, orientation: .up)
            }

            /// An image from a pixel buffer, shown with `orientation`.
            ///
            /// - Throws: ``TasksError/invalidImage(_:)`` as ``init(pixelBuffer:)``.
            public convenience init(pixelBuffer: CVPixelBuffer, orientation: ImageOrientation) throws(TasksError) {
                let bitmap = try MPImage.bitmap(from: pixelBuffer)
                self.init(
                    bitmap: bitmap, orientation: orientation, sourceType: .pixelBuffer,
                    reportedSize: (bitmap.width, bitmap.height), appleSource: AppleImageSource(pixelBuffer: pixelBuffer)
                )
            }

            /// Copies a 32BGRA pixel buffer (MP: MPPImage+Utils.mm accepts only 32BGRA and
            /// OneComponent32Float; the float format cannot be converted to an RGB tensor here).
            static func bitmap(from pixelBuffer: CVPixelBuffer) throws(TasksError) -> Bitmap {
                guard CVPixelBufferGetPixelFormatType(pixelBuffer) == kCVPixelFormatType_32BGRA else {
                    throw TasksError.invalidImage(
                        "Unsupported pixel format for CVPixelBuffer. Expected kCVPixelFormatType_32BGRA")
                }
                guard CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly) == kCVReturnSuccess else {
                    throw TasksError.invalidImage("The pixel buffer cannot be locked for reading.")
                }
                defer { CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly) }
                guard let base = CVPixelBufferGetBaseAddress(pixelBuffer) else {
                    throw TasksError.invalidImage("The pixel buffer has no memory.")
                }
                let width = CVPixelBufferGetWidth(pixelBuffer)
                let height = CVPixelBufferGetHeight(pixelBuffer)
                let bytesPerRow = CVPixelBufferGetBytesPerRow(pixelBuffer)
                let bytes = UnsafeRawBufferPointer(start: base, count: bytesPerRow * height)
                return try MPImage.decode {
                    try Bitmap(copying: bytes, width: width, height: height, bytesPerRow: bytesPerRow, format: .bgra8)
                }
            }
        }
    #endif

    #if canImport(CoreMedia)
        extension MPImage {
            /// An image from a camera sample buffer, shown upright (`.up`).
            ///
            /// - Throws: ``TasksError/invalidImage(_:)`` when the sample buffer is invalid, holds no
            ///   image buffer, or its pixel buffer is not 32BGRA.
            public convenience init(sampleBuffer: CMSampleBuffer) throws(TasksError) {
                try self.init(sampleBuffer: sampleBuffer, orientation: .up)
            }

            /// An image from a camera sample buffer, shown with `orientation`.
            ///
            /// - Throws: ``TasksError/invalidImage(_:)`` as ``init(sampleBuffer:)``.
            public convenience init(sampleBuffer: CMSampleBuffer, orientation: ImageOrientation) throws(TasksError) {
                guard CMSampleBufferIsValid(sampleBuffer) else {
                    throw TasksError.invalidImage(
                        "Sample buffer is not valid. Invoking CMSampleBufferIsValid(sampleBuffer) must return true.")
                }
                guard let imageBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else {
                    throw TasksError.invalidImage("Sample buffer does not contain an image buffer.")
                }
                let bitmap = try MPImage.bitmap(from: imageBuffer)
                self.init(
                    bitmap: bitmap, orientation: orientation, sourceType: .sampleBuffer,
                    reportedSize: (bitmap.width, bitmap.height),
                    appleSource: AppleImageSource(sampleBuffer: sampleBuffer))
            }
        }
    #endif

    #if canImport(UIKit) && canImport(CoreVideo)
        extension MPImage {
            /// ``init(pixelBuffer:orientation:)`` with a `UIImage.Orientation`.
            @_disfavoredOverload
            public convenience init(pixelBuffer: CVPixelBuffer, orientation: UIImage.Orientation) throws(TasksError) {
                try self.init(pixelBuffer: pixelBuffer, orientation: ImageOrientation(orientation))
            }
        }
    #endif

    #if canImport(UIKit) && canImport(CoreMedia)
        extension MPImage {
            /// ``init(sampleBuffer:orientation:)`` with a `UIImage.Orientation`.
            @_disfavoredOverload
            public convenience init(sampleBuffer: CMSampleBuffer, orientation: UIImage.Orientation) throws(TasksError) {
                try self.init(sampleBuffer: sampleBuffer, orientation: ImageOrientation(orientation))
            }
        }
    #endif
#endif
