/// A matrix of floats stored column by column, such as a face's 4×4 facial transformation
/// matrix.
///
/// Mirrors MediaPipe's `MPPTransformMatrix`
/// (mediapipe/tasks/ios/vision/face_landmarker/sources/MPPFaceLandmarkerResult.h). As there,
/// ``data`` holds the values in column-major order (Eigen's, mediapipe/framework/formats/matrix.cc),
/// so a transformation matrix's translation is `data[12...14]`. Unlike there, the pointer is
/// read-only, since a matrix is a value shared by its copies, and ``value(atRow:column:)``
/// returns the element at that row and column, where MediaPipe returns the one at the
/// transposed position (docs/DIFFERENCES.md).
public struct TransformMatrix: Sendable, Hashable {
    /// The number of rows.
    public let rows: UInt
    /// The number of columns.
    public let columns: UInt
    private let storage: Storage

    /// The `rows × columns` values, column after column. Valid as long as any copy of the matrix
    /// is alive.
    public var data: UnsafePointer<Float> { UnsafePointer(storage.pointer) }

    /// The values, column after column (beyond MediaPipe).
    public var values: [Float] { Array(UnsafeBufferPointer(start: storage.pointer, count: storage.count)) }

    /// Creates a matrix by copying `rows × columns` values, column after column, from `data`.
    ///
    /// - Precondition: `rows` and `columns` are not negative.
    public init(data: UnsafePointer<Float>, rows: Int, columns: Int) {
        precondition(rows >= 0 && columns >= 0, "A matrix cannot have a negative number of rows or columns.")
        self.init(values: UnsafeBufferPointer(start: data, count: rows * columns), rows: rows, columns: columns)
    }

    /// Creates a matrix from its values, column after column (beyond MediaPipe).
    ///
    /// - Precondition: `values.count` is `rows × columns`.
    public init(columnMajorValues values: [Float], rows: Int, columns: Int) {
        precondition(
            rows >= 0 && columns >= 0 && values.count == rows * columns,
            "A \(rows) × \(columns) matrix needs \(rows * columns) values, not \(values.count).")
        self = values.withUnsafeBufferPointer { TransformMatrix(values: $0, rows: rows, columns: columns) }
    }

    private init(values: UnsafeBufferPointer<Float>, rows: Int, columns: Int) {
        self.rows = UInt(rows)
        self.columns = UInt(columns)
        storage = Storage(copying: values)
    }

    /// The element in row `row` and column `column`.
    ///
    /// - Precondition: `row < rows` and `column < columns` (MediaPipe raises `NSRangeException`
    ///   with the same messages).
    public func value(atRow row: UInt, column: UInt) -> Float {
        precondition(row < rows, "Row is outside of matrix range.")
        precondition(column < columns, "Column is outside of matrix range.")
        return storage.pointer[Int(column * rows + row)]
    }

    /// Whether both matrices have the same shape and values.
    public static func == (lhs: TransformMatrix, rhs: TransformMatrix) -> Bool {
        lhs.rows == rhs.rows && lhs.columns == rhs.columns && lhs.values == rhs.values
    }

    /// Hashes the shape and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows)
        hasher.combine(columns)
        hasher.combine(values)
    }

    /// The values of a matrix, allocated once and never written after the initializer.
    ///
    /// `@unchecked Sendable`: the memory is filled before the storage is shared and only read
    /// afterwards; the public pointer is read-only.
    private final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Float>
        let count: Int

        init(copying values: UnsafeBufferPointer<Float>) {
            count = values.count
            pointer = .allocate(capacity: max(count, 1))
            if let base = values.baseAddress { pointer.initialize(from: base, count: count) }
        }

        deinit {
            pointer.deallocate()
        }
    }
}
