import Testing

@testable import VisionTasks

/// The face connection tables against the facts of MediaPipe's face_landmarks_connections.h
/// (spec API.md §13.4).
@Suite("Face connections")
struct FaceConnectionsTests {
    private static func indices(_ connections: [Connection]) -> Set<UInt> {
        Set(connections.flatMap { [$0.start, $0.end] })
    }

    @Test func tablesHaveUpstreamPairCounts() {
        #expect(FaceConnections.lips.count == 40)
        #expect(FaceConnections.leftEye.count == 16)
        #expect(FaceConnections.rightEye.count == 16)
        #expect(FaceConnections.leftEyebrow.count == 8)
        #expect(FaceConnections.rightEyebrow.count == 8)
        #expect(FaceConnections.leftIris.count == 4)
        #expect(FaceConnections.rightIris.count == 4)
        #expect(FaceConnections.faceOval.count == 36)
        #expect(FaceConnections.tesselation.count == 2556)
        #expect(FaceConnections.contours.count == 132)
        #expect(FaceConnections.all.count == 2728)
    }

    @Test func tablesStartWithUpstreamPairs() {
        let first = { (connections: [Connection]) in connections.first.map { [$0.start, $0.end] } }
        #expect(first(FaceConnections.lips) == [61, 146])
        #expect(first(FaceConnections.leftEye) == [263, 249])
        #expect(first(FaceConnections.rightEye) == [33, 7])
        #expect(first(FaceConnections.faceOval) == [10, 338])
        #expect(first(FaceConnections.tesselation) == [127, 34])
        #expect(FaceConnections.tesselation.last.map { [$0.start, $0.end] } == [255, 339])
    }

    @Test func contoursConcatenateLipsLeftRightAndOvalInUpstreamOrder() {
        let expected =
            FaceConnections.lips + FaceConnections.leftEye + FaceConnections.leftEyebrow + FaceConnections.leftIris
            + FaceConnections.rightEye + FaceConnections.rightEyebrow + FaceConnections.rightIris
            + FaceConnections.faceOval
        #expect(FaceConnections.contours == expected)
    }

    @Test func allIsLipsThenContoursThenTesselation() {
        #expect(FaceConnections.all == FaceConnections.lips + FaceConnections.contours + FaceConnections.tesselation)
    }

    @Test func everyIndexIsOneOfThe478FaceLandmarks() {
        #expect(Self.indices(FaceConnections.all).allSatisfy { $0 < 478 })
    }

    @Test func irisesLoopOverTheirFourRimLandmarks() {
        #expect(Self.indices(FaceConnections.leftIris) == Set(474...477))
        #expect(Self.indices(FaceConnections.rightIris) == Set(469...472))
        for iris in [FaceConnections.leftIris, FaceConnections.rightIris] {
            // A closed loop: each connection ends where the next one starts.
            #expect(iris.indices.allSatisfy { iris[$0].end == iris[($0 + 1) % iris.count].start })
        }
        // The iris centres (468, 473) are in no table.
        #expect(Self.indices(FaceConnections.all).isDisjoint(with: [468, 473]))
    }

    @Test func tesselationTrianglesCoverEveryMeshVertex() {
        let mesh = FaceConnections.tesselation
        #expect(Self.indices(mesh) == Set(0..<468))
        // 852 triangles of three connections each: a→b, b→c, c→a.
        #expect(mesh.count == 3 * 852)
        let closed = stride(from: 0, to: mesh.count, by: 3).allSatisfy { i in
            mesh[i].end == mesh[i + 1].start && mesh[i + 1].end == mesh[i + 2].start
                && mesh[i + 2].end == mesh[i].start && mesh[i].start != mesh[i].end
        }
        #expect(closed)
    }

    @Test func tesselationSharesEdgesBetweenNeighbouringTriangles() {
        // Upstream lists each triangle's edges, so an edge two triangles share appears twice, in opposite
        // directions: no directed pair repeats, and the 2556 pairs are 1322 distinct undirected edges, 1234
        // shared and 88 on the borders.
        let mesh = FaceConnections.tesselation
        #expect(Set(mesh).count == mesh.count)
        var uses: [Set<UInt>: Int] = [:]
        for connection in mesh { uses[[connection.start, connection.end], default: 0] += 1 }
        #expect(uses.count == 1322)
        #expect(uses.values.filter { $0 == 2 }.count == 1234)
        // The borders are exactly the face oval, the eyes and the inner lip outline (lips' pairs 20…39).
        let border = Set(uses.filter { $0.value == 1 }.keys)
        let outlines =
            FaceConnections.faceOval + FaceConnections.leftEye + FaceConnections.rightEye
            + FaceConnections.lips[20...]
        #expect(border.count == 88)
        #expect(border == Set(outlines.map { [$0.start, $0.end] }))
        // A disc with three holes (two eyes and the mouth): vertices − edges + faces = 1 − 3.
        #expect(468 - uses.count + mesh.count / 3 == -2)
    }
}
