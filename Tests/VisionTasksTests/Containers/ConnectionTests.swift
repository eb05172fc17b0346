import Testing

@testable import VisionTasks

@Suite("Connections")
struct ConnectionTests {
    @Test func poseSkeletonHas35UpstreamPairs() {
        let pairs = PoseConnections.all.map { [$0.start, $0.end] }
        #expect(pairs.count == 35)
        #expect(pairs.first == [0, 1] && pairs[8] == [9, 10] && pairs.last == [28, 32])
        #expect(pairs.allSatisfy { $0.allSatisfy { $0 < 33 } })
    }

    @Test func handSkeletonIsPalmThenFingers() {
        #expect(HandConnections.all.count == 21)
        #expect(
            HandConnections.palm.map { [$0.start, $0.end] } == [
                [0, 1], [0, 5], [9, 13], [13, 17], [5, 9], [0, 17],
            ])
        #expect(HandConnections.all.suffix(3).map { [$0.start, $0.end] } == [[17, 18], [18, 19], [19, 20]])
        #expect(Array(HandConnections.all[6..<9]) == HandConnections.thumb)
        // Every landmark 1…20 is reached.
        let reached = Set(HandConnections.all.flatMap { [$0.start, $0.end] })
        #expect(reached == Set(0...20))
    }
}
