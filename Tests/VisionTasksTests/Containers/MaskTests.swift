import Testing
import VisionTasks

@Suite("Mask")
struct MaskTests {
    @Test func floatMaskConvertsToBytesOnDemand() throws {
        let values: [Float] = [0, 0.5, 1, 1.5, -1, 0.999]
        let mask = try #require(
            values.withUnsafeBufferPointer {
                Mask(float32Data: $0.baseAddress!, width: 3, height: 2, shouldCopy: false)
            })
        #expect(mask.dataType == .float32)
        #expect(mask.width == 3 && mask.height == 2)
        #expect(mask.float32Data[1] == 0.5)
        // float × 255 truncated; out-of-range values are clamped.
        #expect(Array(UnsafeBufferPointer(start: mask.uint8Data, count: 6)) == [0, 127, 255, 255, 0, 254])
        #expect(mask.uint8Data == mask.uint8Data)  // converted once, cached
    }

    @Test func byteMaskConvertsToFloatsOnDemand() throws {
        let bytes: [UInt8] = [0, 51, 255, 102]
        let mask = try #require(
            bytes.withUnsafeBufferPointer {
                Mask(uInt8Data: $0.baseAddress!, width: 2, height: 2, shouldCopy: true)
            })
        #expect(mask.dataType == .uInt8)
        let floats = mask.withUnsafeFloat32Buffer { Array($0) }
        #expect(floats == [0, 0.2, 1, 0.4])
        #expect(mask.withUnsafeUInt8Buffer { Array($0) } == bytes)
    }

    @Test func maskOwnsACopyOfItsPixels() throws {
        var values: [Float] = [0.25, 0.75]
        let mask = try #require(
            values.withUnsafeBufferPointer {
                Mask(float32Data: $0.baseAddress!, width: 2, height: 1, shouldCopy: false)
            })
        values[0] = 1
        #expect(mask.float32Data[0] == 0.25)
        let copy = mask
        #expect(copy.float32Data == mask.float32Data)  // copies share the immutable storage
    }

    @Test func invalidSizesAreRejected() {
        let value: [Float] = [1]
        value.withUnsafeBufferPointer { pointer in
            #expect(Mask(float32Data: pointer.baseAddress!, width: 0, height: 1, shouldCopy: true) == nil)
            #expect(Mask(float32Data: pointer.baseAddress!, width: -1, height: -1, shouldCopy: true) == nil)
            #expect(Mask(float32Data: pointer.baseAddress!, width: Int.max, height: 2, shouldCopy: true) == nil)
        }
    }
}
