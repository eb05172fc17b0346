import Foundation
import Imaging
import VisionTasks

/// Drawing results onto the upright input picture for `--annotate`.
package struct Annotation {
    package var canvas: Canvas

    /// A canvas holding `image` as it is shown (orientation applied), in RGB.
    package init(image: MPImage) {
        canvas = Canvas(image.bitmap.convertedToRGB().applying(image.orientation))
    }

    /// Line width and point radius that stay visible on large and small pictures.
    private var strokeWidth: Float { Swift.max(2, Float(Swift.min(canvas.width, canvas.height)) / 250) }

    /// Draws `connections` between `landmarks` (normalized to the upright image) and, unless
    /// `pointColor` is `nil`, a dot on each landmark. `lineScale` scales the line width (thin
    /// lines for a dense mesh).
    package mutating func drawSkeleton(
        _ landmarks: [NormalizedLandmark], connections: [Connection], lineColor: RGBColor, pointColor: RGBColor?,
        lineScale: Float = 1
    ) {
        let width = Float(canvas.width)
        let height = Float(canvas.height)
        for connection in connections {
            let start = Int(connection.start)
            let end = Int(connection.end)
            guard start < landmarks.count, end < landmarks.count else { continue }
            canvas.drawLine(
                fromX: landmarks[start].x * width, y: landmarks[start].y * height,
                toX: landmarks[end].x * width, y: landmarks[end].y * height,
                thickness: Swift.max(1, strokeWidth * lineScale), color: lineColor)
        }
        guard let pointColor else { return }
        for landmark in landmarks {
            canvas.fillCircle(
                centerX: landmark.x * width, centerY: landmark.y * height,
                radius: strokeWidth * 1.5, color: pointColor)
        }
    }

    /// A detection's box in pixels, in green, with `label` above it on a green band.
    package mutating func drawBox(_ box: CGRect, label: String?) {
        canvas.strokeRectangle(
            x: Float(box.minX), y: Float(box.minY), width: Float(box.width), height: Float(box.height),
            thickness: 3, color: .green)
        if let label {
            canvas.drawText(
                label, x: Int(box.minX), y: Swift.max(0, Int(box.minY) - 18), color: .black, background: .green)
        }
    }

    /// Blends a mask with the image's size over the picture.
    package mutating func overlay(_ mask: Mask, color: RGBColor, opacity: Float = 0.4) throws {
        try mask.withUnsafeFloat32Buffer { values in
            try canvas.overlayMask(values, width: mask.width, height: mask.height, color: color, opacity: opacity)
        }
    }

    /// Writes the picture as PNG or JPEG (by the path's extension), creating the folder.
    package func write(to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = try ImageEncoder.encode(canvas.bitmap, forPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
