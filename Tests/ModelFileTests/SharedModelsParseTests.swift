import Testing
@testable import ModelFile
import TestSupport

@Suite struct SmokeParse {
    @Test func parsesPoseBundle() throws {
        let container = try ModelContainer(contentsOfFile: SharedData.path("models/pose_landmarker_full.task")!)
        for entry in try container.models() {
            let s = try ModelSummary(model: entry.model)
            print(entry.name, s.operatorCount, s.macs, s.parameters, s.operatorCounts.map { "\($0.name)=\($0.count)" }, s.metadata as Any, s.metadataEntries)
        }
        let ssd = try ModelContainer(contentsOfFile: SharedData.path("models/ssd_mobilenet_v1.tflite")!)
        for entry in try ssd.models() {
            let s = try ModelSummary(model: entry.model)
            print(entry.name, s.operatorCount, s.macs, s.parameters, s.metadata as Any, s.inputs, s.outputs)
        }
    }
}
