// libFuzzer entry point for the model reader: compiled into the ModelFile module by
// scripts/fuzz/build.sh (not part of the Swift package). Any input must end in a value or a
// ModelFileError; a trap, an ASan report or a leak is a finding.

/// Reads `data` the way the tasks do: identify the container, parse every model, read its
/// metadata and associated files, and summarize it.
func fuzzModelReader(_ data: UnsafeRawBufferPointer) {
    let storage = ByteStorage(copying: data)
    guard let container = try? ModelContainer(bytes: storage.all, fileName: "fuzz.task") else { return }
    if let bundle = container.bundle {
        for member in bundle.archive.members {
            _ = try? bundle.archive.extract(member)
        }
    }
    guard let entries = try? container.models() else { return }
    for entry in entries {
        exerciseModel(entry.model)
    }
}

/// Parses a TFLite flatbuffer directly (the `.tflite` path, also used for bundle members).
func fuzzTFLite(_ data: UnsafeRawBufferPointer) {
    let storage = ByteStorage(copying: data)
    guard let model = try? TFLiteModel(bytes: storage.all) else { return }
    exerciseModel(model)
}

/// Parses `TFLITE_METADATA` bytes directly.
func fuzzMetadata(_ data: UnsafeRawBufferPointer) {
    let storage = ByteStorage(copying: data)
    if let metadata = try? ModelMetadata(bytes: storage.all) {
        _ = metadata.allAssociatedFiles.count
        _ = metadata.inputTensors.count + metadata.outputTensors.count
    }
    _ = try? FlexValue(bytes: storage.all)
}

private func exerciseModel(_ model: TFLiteModel) {
    _ = try? model.metadata()
    if let archive = try? model.associatedFiles() {
        for member in archive.members {
            _ = try? archive.extract(member)
        }
    }
    _ = model.metadataString(named: "min_runtime_version")
    for subgraph in model.subgraphs {
        for tensor in subgraph.tensors {
            _ = model.data(of: tensor)
        }
    }
    _ = try? ModelSummary(model: model)
}
