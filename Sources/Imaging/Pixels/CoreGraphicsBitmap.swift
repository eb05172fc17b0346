#if canImport(CoreGraphics)
    import CoreGraphics

    /// Turns CoreGraphics images into RGB bitmaps the way MediaPipe's iOS SDK reads a CGImage
    /// (MP:mediapipe/tasks/ios/vision/core/utils/sources/MPPImage+Utils.mm): drawn into an 8-bit
    /// RGBA premultiplied-last DeviceRGB context, then un-premultiplied; alpha is then dropped.
    package enum CoreGraphicsBitmap {
        /// The pixels of `image`, unrotated.
        ///
        /// - Throws: ``ImageError/invalidDimensions(width:height:)`` for an empty image,
        ///   ``ImageError/unsupportedPixelFormat(_:)`` when CoreGraphics cannot draw it.
        package static func bitmap(from image: CGImage) throws -> Bitmap {
            let width = image.width
            let height = image.height
            _ = try Bitmap.byteCount(width: width, height: height, layout: .rgba8)
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            let drawn = rgba.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                        bytesPerRow: width * 4, space: CGColorSpaceCreateDeviceRGB(),
                        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Big.rawValue)
                else { return false }
                context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
            guard drawn else {
                throw ImageError.unsupportedPixelFormat("CoreGraphics cannot draw this image into RGBA")
            }
            return try rgbBitmap(fromPremultipliedRGBA: rgba, width: width, height: height, blueFirst: false)
        }

        /// Un-premultiplies RGBA (or BGRA when `blueFirst`) bytes and keeps red, green, blue.
        package static func rgbBitmap(
            fromPremultipliedRGBA rgba: [UInt8], width: Int, height: Int, blueFirst: Bool
        ) throws -> Bitmap {
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            let (red, blue) = blueFirst ? (2, 0) : (0, 2)
            rgba.withUnsafeBufferPointer { source in
                rgb.withUnsafeMutableBufferPointer { destination in
                    for index in 0..<(width * height) {
                        let alpha = Int(source[4 * index + 3])
                        @inline(__always) func straight(_ channel: Int) -> UInt8 {
                            let value = Int(source[4 * index + channel])
                            guard alpha != 0, alpha != 255 else { return UInt8(value) }
                            return UInt8(Swift.min(255, (value * 255 + alpha / 2) / alpha))
                        }
                        destination[3 * index] = straight(red)
                        destination[3 * index + 1] = straight(1)
                        destination[3 * index + 2] = straight(blue)
                    }
                }
            }
            return try Bitmap(width: width, height: height, layout: .rgb8, bytes: rgb)
        }
    }
#endif
