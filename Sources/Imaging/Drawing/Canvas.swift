import Foundation

/// An 8-bit RGB color.
package struct RGBColor: Sendable, Equatable, Hashable {
    /// Red.
    package var red: UInt8
    /// Green.
    package var green: UInt8
    /// Blue.
    package var blue: UInt8

    /// Creates a color.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black.
    package static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// White.
    package static let white = RGBColor(red: 255, green: 255, blue: 255)
    /// Red.
    package static let red = RGBColor(red: 255, green: 0, blue: 0)
    /// Green.
    package static let green = RGBColor(red: 0, green: 255, blue: 0)
    /// Blue.
    package static let blue = RGBColor(red: 0, green: 0, blue: 255)
    /// Yellow.
    package static let yellow = RGBColor(red: 255, green: 255, blue: 0)
    /// Cyan.
    package static let cyan = RGBColor(red: 0, green: 255, blue: 255)
    /// Magenta.
    package static let magenta = RGBColor(red: 255, green: 0, blue: 255)
    /// Orange.
    package static let orange = RGBColor(red: 255, green: 140, blue: 0)
}

/// Drawing on an RGB bitmap for annotated outputs: anti-aliased filled circles and thick lines,
/// rectangle outlines, filled rectangles, text in the built-in 5×7 font and mask overlays.
///
/// Coordinates are in pixels with the origin at the top-left corner of the image; pixel (i, j)
/// covers [i, i+1) × [j, j+1), so a normalized landmark (x, y) is at (x·width, y·height).
/// Everything outside the canvas is clipped.
package struct Canvas: Sendable {
    /// The pixels drawn so far (RGB).
    package private(set) var bitmap: Bitmap

    /// A canvas over a copy of `bitmap` (converted to RGB when needed).
    package init(_ bitmap: Bitmap) {
        self.bitmap = bitmap.convertedToRGB()
    }

    /// A canvas of the given size filled with `background`.
    package init(width: Int, height: Int, background: RGBColor = .black) throws {
        bitmap = try Bitmap(width: width, height: height, layout: .rgb8)
        fillRectangle(x: 0, y: 0, width: width, height: height, color: background)
    }

    /// Width in pixels.
    package var width: Int { bitmap.width }
    /// Height in pixels.
    package var height: Int { bitmap.height }

    // MARK: - Shapes

    /// Fills a circle (anti-aliased edge).
    package mutating func fillCircle(
        centerX: Float, centerY: Float, radius: Float, color: RGBColor, opacity: Float = 1
    ) {
        guard radius > 0, centerX.isFinite, centerY.isFinite, radius.isFinite else { return }
        let bounds = clippedBounds(
            minX: centerX - radius - 1, maxX: centerX + radius + 1,
            minY: centerY - radius - 1, maxY: centerY + radius + 1)
        guard let bounds else { return }
        paint(bounds, color: color, opacity: opacity) { x, y in
            let dx = x - centerX
            let dy = y - centerY
            return radius + 0.5 - (dx * dx + dy * dy).squareRoot()
        }
    }

    /// Draws a line of the given thickness with round ends (anti-aliased). Thicknesses below
    /// 2 pixels are drawn 2 pixels wide so that lines stay visible on photos.
    package mutating func drawLine(
        fromX x0: Float, y y0: Float, toX x1: Float, y y1: Float, thickness: Float = 2, color: RGBColor,
        opacity: Float = 1
    ) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, thickness.isFinite else { return }
        let half = Swift.max(thickness, 2) / 2
        let bounds = clippedBounds(
            minX: Swift.min(x0, x1) - half - 1, maxX: Swift.max(x0, x1) + half + 1,
            minY: Swift.min(y0, y1) - half - 1, maxY: Swift.max(y0, y1) + half + 1)
        guard let bounds else { return }
        let dx = x1 - x0
        let dy = y1 - y0
        let lengthSquared = dx * dx + dy * dy
        paint(bounds, color: color, opacity: opacity) { x, y in
            var t: Float = 0
            if lengthSquared > 0 {
                t = Swift.min(1, Swift.max(0, ((x - x0) * dx + (y - y0) * dy) / lengthSquared))
            }
            let px = x - (x0 + t * dx)
            let py = y - (y0 + t * dy)
            return half + 0.5 - (px * px + py * py).squareRoot()
        }
    }

    /// Draws the outline of an axis-aligned rectangle with lines `thickness` pixels wide
    /// (at least 2), inside the rectangle's edges.
    package mutating func strokeRectangle(
        x: Float, y: Float, width: Float, height: Float, thickness: Float = 2, color: RGBColor
    ) {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, width > 0, height > 0 else { return }
        let line = Int(Swift.max(2, thickness.rounded()))
        guard let left = Int(exactly: x.rounded()), let top = Int(exactly: y.rounded()),
            let right = Int(exactly: (x + width).rounded()), let bottom = Int(exactly: (y + height).rounded())
        else { return }
        let w = right - left
        let h = bottom - top
        fillRectangle(x: left, y: top, width: w, height: Swift.min(line, h), color: color)
        fillRectangle(x: left, y: bottom - Swift.min(line, h), width: w, height: Swift.min(line, h), color: color)
        fillRectangle(x: left, y: top, width: Swift.min(line, w), height: h, color: color)
        fillRectangle(x: right - Swift.min(line, w), y: top, width: Swift.min(line, w), height: h, color: color)
    }

    /// Fills an axis-aligned rectangle of whole pixels.
    package mutating func fillRectangle(x: Int, y: Int, width: Int, height: Int, color: RGBColor, opacity: Float = 1) {
        let left = Swift.max(0, x)
        let top = Swift.max(0, y)
        let (rightValue, rightOverflow) = x.addingReportingOverflow(width)
        let (bottomValue, bottomOverflow) = y.addingReportingOverflow(height)
        let right = Swift.min(self.width, rightOverflow ? Int.max : rightValue)
        let bottom = Swift.min(self.height, bottomOverflow ? Int.max : bottomValue)
        guard left < right, top < bottom else { return }
        let alpha = Swift.min(1, Swift.max(0, opacity))
        let rowBytes = bitmap.bytesPerRow
        bitmap.withUnsafeMutableBytes { pixels in
            for row in top..<bottom {
                for column in left..<right {
                    Canvas.blend(pixels, offset: row * rowBytes + column * 3, color: color, amount: alpha)
                }
            }
        }
    }

    // MARK: - Text

    /// The size in pixels of `text` drawn at `scale` (one line per `\n`).
    package static func textSize(_ text: String, scale: Int = 2) -> (width: Int, height: Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let columns = lines.map(\.count).max() ?? 0
        let factor = Swift.max(1, scale)
        return (Swift.max(0, columns * BitmapFont.advance - 1) * factor, lines.count * BitmapFont.lineHeight * factor)
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide,
    /// on an optional filled background box with a `padding`-pixel margin.
    package mutating func drawText(
        _ text: String, x: Int, y: Int, scale: Int = 2, color: RGBColor = .white,
        background: RGBColor? = nil, padding: Int = 2
    ) {
        let factor = Swift.min(Swift.max(1, scale), 64)
        if let background {
            let size = Canvas.textSize(text, scale: factor)
            fillRectangle(
                x: x - padding, y: y - padding, width: size.width + 2 * padding, height: size.height + 2 * padding,
                color: background)
        }
        var lineTop = y
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var left = x
            for character in line {
                for row in 0..<BitmapFont.glyphHeight {
                    for column in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(character, column: column, row: row)
                    {
                        fillRectangle(
                            x: left + column * factor, y: lineTop + row * factor, width: factor, height: factor,
                            color: color)
                    }
                }
                left += BitmapFont.advance * factor
                if left >= width { break }
            }
            lineTop += BitmapFont.lineHeight * factor
            if lineTop >= height { break }
        }
    }

    // MARK: - Masks

    /// Tints the canvas with `color` where `mask` (values 0...1, row-major, `maskWidth` ×
    /// `maskHeight`) is high: each pixel moves toward `color` by `opacity · mask`. The mask is
    /// resampled bilinearly to the canvas size (pixel centers aligned).
    ///
    /// - Throws: ``ImageError/invalidPixelData(_:)`` when the mask is smaller than its size.
    package mutating func overlayMask(
        _ mask: UnsafeBufferPointer<Float>, width maskWidth: Int, height maskHeight: Int, color: RGBColor,
        opacity: Float = 0.5
    ) throws {
        guard maskWidth > 0, maskHeight > 0, maskWidth.multipliedReportingOverflow(by: maskHeight).overflow == false,
            mask.count >= maskWidth * maskHeight
        else {
            throw ImageError.invalidPixelData(
                "mask of \(mask.count) values does not hold \(maskWidth)x\(maskHeight)")
        }
        let alpha = Swift.min(1, Swift.max(0, opacity))
        let scaleX = Float(maskWidth) / Float(width)
        let scaleY = Float(maskHeight) / Float(height)
        let rowBytes = bitmap.bytesPerRow
        let canvasWidth = width
        let canvasHeight = height
        bitmap.withUnsafeMutableBytes { pixels in
            for row in 0..<canvasHeight {
                let sy = Swift.min(Swift.max((Float(row) + 0.5) * scaleY - 0.5, 0), Float(maskHeight - 1))
                let y0 = Int(sy)
                let y1 = Swift.min(y0 + 1, maskHeight - 1)
                let fy = sy - Float(y0)
                for column in 0..<canvasWidth {
                    let sx = Swift.min(Swift.max((Float(column) + 0.5) * scaleX - 0.5, 0), Float(maskWidth - 1))
                    let x0 = Int(sx)
                    let x1 = Swift.min(x0 + 1, maskWidth - 1)
                    let fx = sx - Float(x0)
                    let top = mask[y0 * maskWidth + x0] * (1 - fx) + mask[y0 * maskWidth + x1] * fx
                    let bottom = mask[y1 * maskWidth + x0] * (1 - fx) + mask[y1 * maskWidth + x1] * fx
                    var value = top * (1 - fy) + bottom * fy
                    if !value.isFinite { value = 0 }
                    let amount = alpha * Swift.min(1, Swift.max(0, value))
                    if amount > 0 {
                        Canvas.blend(pixels, offset: row * rowBytes + column * 3, color: color, amount: amount)
                    }
                }
            }
        }
    }

    /// ``overlayMask(_:width:height:color:opacity:)`` for an array.
    package mutating func overlayMask(
        _ mask: [Float], width maskWidth: Int, height maskHeight: Int, color: RGBColor, opacity: Float = 0.5
    ) throws {
        try mask.withUnsafeBufferPointer {
            try overlayMask($0, width: maskWidth, height: maskHeight, color: color, opacity: opacity)
        }
    }

    // MARK: - Helpers

    private struct Bounds {
        let minX: Int
        let maxX: Int
        let minY: Int
        let maxY: Int
    }

    /// The pixel range covering [minX, maxX] × [minY, maxY], clipped to the canvas.
    private func clippedBounds(minX: Float, maxX: Float, minY: Float, maxY: Float) -> Bounds? {
        let left = Swift.max(0, minX.rounded(.down))
        let right = Swift.min(Float(width - 1), maxX.rounded(.up))
        let top = Swift.max(0, minY.rounded(.down))
        let bottom = Swift.min(Float(height - 1), maxY.rounded(.up))
        guard left <= right, top <= bottom else { return nil }
        return Bounds(minX: Int(left), maxX: Int(right), minY: Int(top), maxY: Int(bottom))
    }

    /// Blends `color` into every pixel of `bounds` by the coverage `coverage(centerX, centerY)`
    /// returns (clamped to 0...1).
    private mutating func paint(
        _ bounds: Bounds, color: RGBColor, opacity: Float, coverage: (Float, Float) -> Float
    ) {
        let alpha = Swift.min(1, Swift.max(0, opacity))
        let rowBytes = bitmap.bytesPerRow
        bitmap.withUnsafeMutableBytes { pixels in
            for row in bounds.minY...bounds.maxY {
                for column in bounds.minX...bounds.maxX {
                    let amount = Swift.min(1, Swift.max(0, coverage(Float(column) + 0.5, Float(row) + 0.5))) * alpha
                    if amount > 0 {
                        Canvas.blend(pixels, offset: row * rowBytes + column * 3, color: color, amount: amount)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func blend(_ pixels: UnsafeMutableBufferPointer<UInt8>, offset: Int, color: RGBColor, amount: Float)
    {
        if amount >= 1 {
            pixels[offset] = color.red
            pixels[offset + 1] = color.green
            pixels[offset + 2] = color.blue
            return
        }
        @inline(__always) func mix(_ current: UInt8, _ target: UInt8) -> UInt8 {
            let value = Float(current)
            return UInt8((value + (Float(target) - value) * amount).rounded())
        }
        pixels[offset] = mix(pixels[offset], color.red)
        pixels[offset + 1] = mix(pixels[offset + 1], color.green)
        pixels[offset + 2] = mix(pixels[offset + 2], color.blue)
    }
}
