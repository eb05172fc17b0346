import Foundation
import TestSupport
import Testing

@testable import ModelFile

/// Replays the model reader fuzzers' corpus and every past crasher (Fuzz/Corpus/{model,tflite,
/// metadata}, Fuzz/Crashers/…; see docs/RELIABILITY.md) through the same calls as the fuzz
/// targets (Fuzz/Targets/ModelReaderFuzz.swift): each must return or throw a `ModelFileError`.
@Suite("Model fuzz corpus replay")
struct ModelFuzzCorpusReplayTests {
    /// Runs `body`, recording anything thrown that is not a `ModelFileError`; returns whether
    /// it succeeded.
    @discardableResult
    private func typed(_ input: URL, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch is ModelFileError {
            return false
        } catch {
            Issue.record("\(input.lastPathComponent): not a ModelFileError: \(error)")
            return false
        }
    }

    private func exercise(_ model: TFLiteModel, _ input: URL) {
        typed(input) { _ = try model.metadata() }
        typed(input) {
            if let archive = try model.associatedFiles() {
                for member in archive.members { typed(input) { _ = try archive.extract(member) } }
            }
        }
        _ = model.metadataString(named: "min_runtime_version")
        for subgraph in model.subgraphs {
            for tensor in subgraph.tensors { _ = model.data(of: tensor) }
        }
        typed(input) { _ = try ModelSummary(model: model) }
    }

    @Test func bundlesAndModelsReadOrThrowModelFileError() throws {
        let inputs = FuzzCorpus.inputs("model") + FuzzCorpus.inputs("tflite")
        #expect(inputs.count >= 7, "the model corpus is missing from \(FuzzCorpus.root.path)")
        var parsed = 0
        for input in inputs {
            let storage = ByteStorage(copying: try Data(contentsOf: input))
            typed(input) {
                let container = try ModelContainer(bytes: storage.all, fileName: "fuzz.task")
                if let bundle = container.bundle {
                    for member in bundle.archive.members { typed(input) { _ = try bundle.archive.extract(member) } }
                }
                for entry in try container.models() {
                    exercise(entry.model, input)
                    parsed += 1
                }
            }
            typed(input) { exercise(try TFLiteModel(bytes: storage.all), input) }
        }
        #expect(parsed >= 6, "\(parsed) models parsed")
    }

    @Test func metadataReadsOrThrowsModelFileError() throws {
        let inputs = FuzzCorpus.inputs("metadata")
        #expect(inputs.count >= 3, "the metadata corpus is missing from \(FuzzCorpus.root.path)")
        var parsed = 0
        for input in inputs {
            let storage = ByteStorage(copying: try Data(contentsOf: input))
            if typed(input, { _ = try ModelMetadata(bytes: storage.all).allAssociatedFiles }) { parsed += 1 }
            if typed(input, { _ = try FlexValue(bytes: storage.all) }) { parsed += 1 }
        }
        #expect(parsed >= 3)
    }
}
