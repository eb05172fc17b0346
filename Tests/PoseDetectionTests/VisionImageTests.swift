import Testing
import VisionTasks

@testable import PoseDetection

@Suite struct VisionImageTests {
    @Test func orientationIsSettableAndReachesTheImage() throws {
        let pixels = [UInt8](repeating: 9, count: 4 * 2 * 3)
        let image = try MPImage(pixels: pixels, width: 4, height: 2, bytesPerRow: 12, format: .rgb8)
        let vision = VisionImage(image: image)
        #expect(vision.orientation == .up)
        #expect(try vision.mpImage() === image)
        vision.orientation = .leftMirrored
        let oriented = try vision.mpImage()
        #expect(oriented.orientation == .leftMirrored)
        #expect(oriented.uprightSize.width == 2 && oriented.uprightSize.height == 4)
    }
}
