/// The face landmarker bundle's `geometry_pipeline_metadata_landmarks.binarypb`: a binary
/// `GeometryPipelineMetadata` (mediapipe/tasks/cc/vision/face_geometry/proto/
/// geometry_pipeline_metadata.proto, mesh_3d.proto): the canonical face mesh (field 1: vertex
/// type 1, primitive type 2, vertex buffer 3, index buffer 4), the weighted landmarks of the
/// Procrustes fit (field 2: landmark id 1, weight 2) and the input source (field 3).
package struct GeometryPipelineMetadata: Sendable, Equatable {
    /// `input_source`: 0 DEFAULT, 1 FACE_LANDMARK_PIPELINE, 2 FACE_DETECTION_PIPELINE.
    package var inputSource: Int
    /// The canonical mesh's vertices, in centimetres.
    package var canonicalVertices: [SIMD3<Float>]
    /// Its triangles' vertex indices, three per triangle.
    package var triangleIndices: [UInt32]
    /// `(landmark, weight)` pairs of the Procrustes fit; other landmarks weigh 0.
    package var procrustesWeights: [(landmark: Int, weight: Float)]

    package static func == (lhs: GeometryPipelineMetadata, rhs: GeometryPipelineMetadata) -> Bool {
        lhs.inputSource == rhs.inputSource && lhs.canonicalVertices == rhs.canonicalVertices
            && lhs.triangleIndices == rhs.triangleIndices
            && lhs.procrustesWeights.map(\.landmark) == rhs.procrustesWeights.map(\.landmark)
            && lhs.procrustesWeights.map(\.weight) == rhs.procrustesWeights.map(\.weight)
    }

    /// Parses the binary proto.
    ///
    /// - Throws: ``ModelFileError/malformed(_:)`` for a malformed proto, a mesh whose vertices
    ///   are not VERTEX_PT (5 floats each: x, y, z, u, v) or not triangles, or no weights.
    package init(bytes: ByteRange) throws {
        let what = "geometry pipeline metadata"
        var reader = ProtobufReader(bytes, what: what)
        var source = 0
        var vertexType: UInt64 = 0
        var primitiveType: UInt64 = 0
        var buffer: [Float] = []
        var indices: [UInt32] = []
        var weights: [(Int, Float)] = []
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (3, .varint(let number)):
                source = Int(clamping: number)
            case (1, .bytes(let mesh)):
                var meshReader = ProtobufReader(mesh, what: "\(what) canonical mesh")
                while let (meshField, meshValue) = try meshReader.next() {
                    switch meshField {
                    case 1: vertexType = try ProtobufReader.varints(meshValue, what: what).last ?? 0
                    case 2: primitiveType = try ProtobufReader.varints(meshValue, what: what).last ?? 0
                    case 3: buffer += try ProtobufReader.floats(meshValue, what: "\(what) vertex buffer")
                    case 4:
                        indices += try ProtobufReader.varints(meshValue, what: "\(what) index buffer").map {
                            UInt32(truncatingIfNeeded: $0)
                        }
                    default: break
                    }
                }
            case (2, .bytes(let entry)):
                var entryReader = ProtobufReader(entry, what: "\(what) procrustes weight")
                var landmark = 0
                var weight: Float = 0
                while let (entryField, entryValue) = try entryReader.next() {
                    switch (entryField, entryValue) {
                    case (1, .varint(let id)): landmark = Int(clamping: id)
                    case (2, .fixed32(let bits)): weight = Float(bitPattern: bits)
                    default: break
                    }
                }
                weights.append((landmark, weight))
            default:
                break
            }
        }
        guard vertexType == 0, primitiveType == 0, !buffer.isEmpty, buffer.count % 5 == 0, indices.count % 3 == 0
        else {
            throw ModelFileError.malformed(
                "\(what): the canonical mesh must be VERTEX_PT triangles (5 floats per vertex), has vertex type "
                    + "\(vertexType), primitive type \(primitiveType), \(buffer.count) floats, \(indices.count) indices"
            )
        }
        let vertexCount = buffer.count / 5
        guard !weights.isEmpty, weights.allSatisfy({ $0.0 >= 0 && $0.0 < vertexCount }),
            indices.allSatisfy({ Int($0) < vertexCount })
        else {
            throw ModelFileError.malformed("\(what): landmark or vertex indices outside the \(vertexCount) vertices")
        }
        inputSource = source
        canonicalVertices = (0..<vertexCount).map { SIMD3(buffer[5 * $0], buffer[5 * $0 + 1], buffer[5 * $0 + 2]) }
        triangleIndices = indices
        procrustesWeights = weights.map { (landmark: $0.0, weight: $0.1) }
    }
}
