#if canImport(ImageIO)
    import CoreGraphics
    import Foundation
    import ImageIO

    /// Decoding and encoding through ImageIO and CoreGraphics (Apple platforms).
    enum PlatformCodec {
        /// Decodes `data` of a known format to an RGB bitmap.
        static func decode(
            _ data: UnsafeRawBufferPointer, format: ImageFileFormat, limits: DecodingLimits
        ) throws -> Bitmap {
            guard let base = data.baseAddress, !data.isEmpty else { throw ImageError.emptyData }
            guard let cfData = CFDataCreate(nil, base.assumingMemoryBound(to: UInt8.self), data.count),
                let source = CGImageSourceCreateWithData(cfData, nil), CGImageSourceGetCount(source) > 0
            else {
                throw ImageError.corruptData("ImageIO cannot read the data")
            }
            guard let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
                let width = (properties[kCGImagePropertyPixelWidth] as? NSNumber)?.intValue,
                let height = (properties[kCGImagePropertyPixelHeight] as? NSNumber)?.intValue
            else {
                throw ImageError.corruptData("ImageIO finds no image size")
            }
            guard limits.allows(width: width, height: height) else {
                throw limits.tooLarge(width: width, height: height)
            }
            guard CGImageSourceGetStatusAtIndex(source, 0) == .statusComplete else {
                throw ImageError.truncatedData("ImageIO reports an incomplete image")
            }
            let options = [kCGImageSourceShouldCache: false] as CFDictionary
            guard let image = CGImageSourceCreateImageAtIndex(source, 0, options) else {
                throw ImageError.corruptData("ImageIO cannot decode the image")
            }
            return try CoreGraphicsBitmap.bitmap(from: image)
        }

        /// Encodes an RGB bitmap; `orientation` is written as EXIF metadata when given.
        static func encode(
            _ bitmap: Bitmap, format: ImageFileFormat, quality: Int, orientation: ImageOrientation?
        ) throws -> [UInt8] {
            let rgb = bitmap.convertedToRGB()
            let name = format == .jpeg ? "JPEG" : "PNG"
            guard let provider = CGDataProvider(data: Data(rgb.bytes) as CFData),
                let image = CGImage(
                    width: rgb.width, height: rgb.height, bitsPerComponent: 8, bitsPerPixel: 24,
                    bytesPerRow: rgb.bytesPerRow, space: CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue), provider: provider,
                    decode: nil, shouldInterpolate: false, intent: .defaultIntent)
            else {
                throw ImageError.encodingFailed("\(name): cannot create a CGImage")
            }
            let output = NSMutableData()
            let type = (format == .jpeg ? "public.jpeg" : "public.png") as CFString
            guard let destination = CGImageDestinationCreateWithData(output as CFMutableData, type, 1, nil) else {
                throw ImageError.encodingFailed("\(name): ImageIO has no encoder")
            }
            var properties: [CFString: Any] = [:]
            if format == .jpeg {
                properties[kCGImageDestinationLossyCompressionQuality] =
                    Double(Swift.max(1, Swift.min(100, quality))) / 100
            }
            if let orientation {
                properties[kCGImagePropertyOrientation] = orientation.exifValue
            }
            CGImageDestinationAddImage(destination, image, properties as CFDictionary)
            guard CGImageDestinationFinalize(destination) else {
                throw ImageError.encodingFailed("\(name): ImageIO could not finish the file")
            }
            return [UInt8](output as Data)
        }

        /// A grayscale PNG of `samples` (`width × height`, row-major; 16-bit samples big-endian).
        static func encodeGrayPNG(_ samples: [UInt8], width: Int, height: Int, bitDepth: Int) throws -> [UInt8] {
            let byteOrder = bitDepth == 16 ? CGBitmapInfo.byteOrder16Big.rawValue : 0
            guard let provider = CGDataProvider(data: Data(samples) as CFData),
                let image = CGImage(
                    width: width, height: height, bitsPerComponent: bitDepth, bitsPerPixel: bitDepth,
                    bytesPerRow: width * bitDepth / 8, space: CGColorSpaceCreateDeviceGray(),
                    bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue | byteOrder), provider: provider,
                    decode: nil, shouldInterpolate: false, intent: .defaultIntent)
            else {
                throw ImageError.encodingFailed("PNG: cannot create a grayscale CGImage")
            }
            let output = NSMutableData()
            guard
                let destination = CGImageDestinationCreateWithData(
                    output as CFMutableData, "public.png" as CFString, 1, nil)
            else {
                throw ImageError.encodingFailed("PNG: ImageIO has no encoder")
            }
            CGImageDestinationAddImage(destination, image, nil)
            guard CGImageDestinationFinalize(destination) else {
                throw ImageError.encodingFailed("PNG: ImageIO could not finish the file")
            }
            return [UInt8](output as Data)
        }
    }
#elseif !canImport(CImagingSupport)

    /// No image codec on this platform: every call fails with a typed error.
    enum PlatformCodec {
        static func decode(
            _ data: UnsafeRawBufferPointer, format: ImageFileFormat, limits: DecodingLimits
        ) throws -> Bitmap {
            throw ImageError.unsupportedFormat("no JPEG/PNG decoder on this platform")
        }

        static func encode(
            _ bitmap: Bitmap, format: ImageFileFormat, quality: Int, orientation: ImageOrientation?
        ) throws -> [UInt8] {
            throw ImageError.encodingFailed("no JPEG/PNG encoder on this platform")
        }

        static func encodeGrayPNG(_ samples: [UInt8], width: Int, height: Int, bitDepth: Int) throws -> [UInt8] {
            throw ImageError.encodingFailed("no PNG encoder on this platform")
        }
    }
#endif
