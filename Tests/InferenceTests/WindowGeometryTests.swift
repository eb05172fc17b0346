import Testing

@testable import Inference

@Suite struct WindowGeometryTests {
    @Test func samePaddingPutsTheSmallerHalfBefore() throws {
        // in 7, filter 3, stride 2: out 4, total padding (4-1)*2+3-7 = 2 → 1 before.
        let axis = try #require(WindowAxis(input: 7, filter: 3, stride: 2, dilation: 1, padding: .same))
        #expect(axis.output == 4)
        #expect(axis.padBefore == 1)
        // in 6, filter 2, stride 2: out 3, total 0.
        let even = try #require(WindowAxis(input: 6, filter: 2, stride: 2, dilation: 1, padding: .same))
        #expect(even.output == 3 && even.padBefore == 0)
        // in 4, filter 4, stride 1: out 4, total 3 → 1 before, 2 after.
        let odd = try #require(WindowAxis(input: 4, filter: 4, stride: 1, dilation: 1, padding: .same))
        #expect(odd.padBefore == 1)
    }
}
