import Foundation
import Imaging
import Testing

/// Drawing primitives for annotated outputs.
@Suite struct CanvasTests {
    private func pixel(_ canvas: Canvas, _ x: Int, _ y: Int) -> RGBColor? {
        canvas.bitmap.rgb(x: x, y: y).map { RGBColor(red: $0.red, green: $0.green, blue: $0.blue) }
    }

    @Test func filledCircleCoversItsInsideOnly() throws {
        var canvas = try Canvas(width: 40, height: 40)
        canvas.fillCircle(centerX: 20, centerY: 20, radius: 6, color: .red)
        #expect(pixel(canvas, 20, 20) == .red)
        #expect(pixel(canvas, 24, 20) == .red)
        #expect(pixel(canvas, 28, 20) == .black)
        #expect(pixel(canvas, 20, 12) == .black)
        // The edge is anti-aliased: some pixel is between black and red.
        let edge = (0..<40).compactMap { pixel(canvas, $0, 20)?.red }.filter { $0 > 0 && $0 < 255 }
        #expect(!edge.isEmpty)
    }

    @Test func linesAreAtLeastTwoPixelsWide() throws {
        var canvas = try Canvas(width: 30, height: 30)
        canvas.drawLine(fromX: 2, y: 15, toX: 28, y: 15, thickness: 1, color: .green)
        // A horizontal line along y = 15 (a pixel boundary) covers rows 14 and 15 fully.
        for x in 4..<26 {
            #expect(pixel(canvas, x, 14) == .green && pixel(canvas, x, 15) == .green)
            #expect(pixel(canvas, x, 11) == .black && pixel(canvas, x, 18) == .black)
        }
        var thick = try Canvas(width: 30, height: 30)
        thick.drawLine(fromX: 15, y: 2, toX: 15, y: 28, thickness: 6, color: .blue)
        #expect((12..<18).allSatisfy { pixel(thick, $0, 15) == .blue })
        #expect(pixel(thick, 9, 15) == .black)
    }

    @Test func diagonalLineIsContinuous() throws {
        var canvas = try Canvas(width: 50, height: 50)
        canvas.drawLine(fromX: 5, y: 5, toX: 45, y: 40, thickness: 2, color: .white)
        for x in 6..<44 {
            let y = Int(5 + Float(x - 5) * 35 / 40)
            let column = (max(0, y - 2)...min(49, y + 2)).compactMap { pixel(canvas, x, $0)?.red }
            #expect(column.contains { $0 > 128 }, "gap at x = \(x)")
        }
    }

    @Test func rectangleOutlineLeavesTheInsideUntouched() throws {
        var canvas = try Canvas(width: 40, height: 30)
        canvas.strokeRectangle(x: 5, y: 5, width: 20, height: 15, thickness: 3, color: .yellow)
        #expect(pixel(canvas, 5, 5) == .yellow)
        #expect(pixel(canvas, 7, 10) == .yellow)
        #expect(pixel(canvas, 24, 19) == .yellow)
        #expect(pixel(canvas, 15, 12) == .black)
        #expect(pixel(canvas, 26, 12) == .black)
    }

    @Test func drawingOutsideTheCanvasIsClipped() throws {
        var canvas = try Canvas(width: 10, height: 10)
        canvas.fillCircle(centerX: -100, centerY: 5, radius: 3, color: .red)
        canvas.drawLine(fromX: -50, y: -50, toX: 500, y: 500, thickness: 4, color: .red)
        canvas.strokeRectangle(x: -5, y: -5, width: 100, height: 100, color: .red)
        canvas.drawText("far away", x: 1000, y: -1000, color: .red)
        canvas.fillCircle(centerX: .nan, centerY: 1, radius: 3, color: .red)
        canvas.drawLine(fromX: 0, y: 0, toX: .infinity, y: 3, color: .red)
        #expect(pixel(canvas, 5, 5) == .red)  // the diagonal line crosses the canvas
    }

    @Test func textUsesTheBitmapFont() throws {
        var canvas = try Canvas(width: 60, height: 20)
        canvas.drawText("H1", x: 2, y: 2, scale: 2, color: .white, background: .blue)
        // 'H' column 0 is set on every row: pixels (2...3, 2...15) are white.
        #expect(pixel(canvas, 2, 2) == .white && pixel(canvas, 3, 15) == .white)
        // 'H' column 2 is set only on row 3 (the bar).
        #expect(pixel(canvas, 6, 2) == .blue && pixel(canvas, 6, 8) == .white)
        // Background box with padding.
        #expect(pixel(canvas, 0, 0) == .blue)
        #expect(Canvas.textSize("H1", scale: 2) == (22, 16))
        #expect(Canvas.textSize("ab\ncde", scale: 1) == (17, 16))
        #expect(BitmapFont.isSet("?", column: 1, row: 0) && BitmapFont.isSet("é", column: 1, row: 0))
    }

    @Test func everyPrintableCharacterHasAGlyph() {
        for code in 33...126 {
            let character = Character(UnicodeScalar(UInt8(code)))
            let pixels = (0..<7).flatMap { row in (0..<5).map { BitmapFont.isSet(character, column: $0, row: row) } }
            #expect(pixels.contains(true), "\(character) is blank")
        }
        #expect(!(0..<7).contains { row in (0..<5).contains { BitmapFont.isSet(" ", column: $0, row: row) } })
    }

    @Test func maskOverlayBlendsWithOpacity() throws {
        var canvas = try Canvas(width: 8, height: 4, background: .white)
        // A 4 × 2 mask: left half 1, right half 0; upsampled to 8 × 4.
        try canvas.overlayMask([1, 1, 0, 0, 1, 1, 0, 0], width: 4, height: 2, color: .red, opacity: 0.5)
        #expect(pixel(canvas, 0, 0) == RGBColor(red: 255, green: 128, blue: 128))
        #expect(pixel(canvas, 7, 3) == .white)
        #expect(throws: ImageError.self) {
            try canvas.overlayMask([1, 0], width: 4, height: 2, color: .red)
        }
    }

    @Test func canvasStartsFromAnImageAndKeepsIt() throws {
        let source = try OrientationTests.sampleBitmap(width: 12, height: 9)
        var canvas = Canvas(source)
        #expect(canvas.bitmap == source)
        canvas.fillRectangle(x: 0, y: 0, width: 2, height: 2, color: .cyan, opacity: 1)
        #expect(pixel(canvas, 1, 1) == .cyan)
        #expect(canvas.bitmap.rgb(x: 5, y: 5)! == source.rgb(x: 5, y: 5)!)
    }
}
