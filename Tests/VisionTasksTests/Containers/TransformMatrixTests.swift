import Testing

@testable import VisionTasks

/// `TransformMatrix` and `Classifications`, MediaPipe's face landmarker containers.
@Suite struct TransformMatrixTests {
    @Test func dataIsColumnMajorAndValueReadsTheNamedElement() {
        // A 2 × 3 matrix [[1, 2, 3], [4, 5, 6]], column after column.
        let columns: [Float] = [1, 4, 2, 5, 3, 6]
        let matrix = columns.withUnsafeBufferPointer { TransformMatrix(data: $0.baseAddress!, rows: 2, columns: 3) }
        #expect(matrix.rows == 2 && matrix.columns == 3)
        #expect((0..<6).map { matrix.data[$0] } == columns)
        #expect(matrix.value(atRow: 0, column: 2) == 3)
        #expect(matrix.value(atRow: 1, column: 0) == 4)
        #expect(matrix.value(atRow: 1, column: 2) == 6)
        #expect(matrix == TransformMatrix(columnMajorValues: columns, rows: 2, columns: 3))
        #expect(matrix != TransformMatrix(columnMajorValues: columns, rows: 3, columns: 2))
    }

    @Test func theInitializerCopiesTheValues() {
        var values: [Float] = [1, 2, 3, 4]
        let matrix = values.withUnsafeBufferPointer { TransformMatrix(data: $0.baseAddress!, rows: 2, columns: 2) }
        values[0] = 99
        #expect(matrix.values == [1, 2, 3, 4])
        let copy = matrix
        #expect(copy.data == matrix.data && copy.values == matrix.values)
    }

    @Test func anEmptyMatrixHasNoValues() {
        let matrix = TransformMatrix(columnMajorValues: [], rows: 0, columns: 4)
        #expect(matrix.rows == 0 && matrix.columns == 4 && matrix.values.isEmpty)
    }

    @Test func classificationsWithoutAHeadNameHaveNil() {
        let category = ResultCategory(index: 0, score: 0.5, categoryName: "a", displayName: nil)
        let unnamed = Classifications(headIndex: 1, categories: [category])
        #expect(unnamed.headIndex == 1 && unnamed.headName == nil && unnamed.categories == [category])
        #expect(Classifications(headIndex: 0, headName: "", categories: []).headName == "")
    }
}
