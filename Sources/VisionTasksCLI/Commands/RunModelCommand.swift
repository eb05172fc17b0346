import Foundation
import Inference
import ModelFile

/// `vision-tasks run-model MODEL [--member NAME] --input FILE... --output-dir DIR [--threads N]
/// [--arithmetic xnnpack|reference] [--isa NAME]`: runs one model with the engine on raw tensors.
///
/// Each input file holds one model input in the tensor's element type and NHWC order, in model
/// input order: little-endian float32 for FLOAT32 inputs, raw bytes for UINT8 / INT8 inputs of
/// quantized models. Each output is written in its element type to `DIR/output_<i>.<ext>`
/// (`f32` for FLOAT32, `u8`, `i8`, `i32`, else `bin`), and its shape is printed.
/// `--arithmetic` chooses the integer arithmetic of quantized operators (default xnnpack);
/// `--isa` the kernels of another instruction set this CPU runs (avx512, avx2, neon, portable),
/// as `bench-model` does, to compare every build's results with LiteRT's.
package enum RunModelCommand: Command {
    package static let name = "run-model"
    package static let summary =
        "run a .tflite model (or a .task member) on raw input files (float32, or uint8/int8 for quantized inputs)"
    package static let usage =
        "vision-tasks run-model MODEL [--member NAME] --input FILE... --output-dir DIR [--threads N] [--arithmetic "
        + "xnnpack|reference] [--isa NAME]"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(
            arguments, flags: [], options: ["member", "input", "output-dir", "threads", "arithmetic", "isa"])
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            throw CLIError.usage("run-model takes exactly one MODEL")
        }
        guard let outputDirectory = parsed.value("output-dir") else { throw CLIError.usage("--output-dir is required") }
        let inputs = parsed.values("input")
        let interpreter = try ModelLoading.interpreter(
            path: context.absolute(file), member: parsed.value("member"),
            threads: try parsed.integer("threads", in: 1...256), instructionSet: parsed.value("isa"),
            arithmetic: try ModelLoading.arithmetic(parsed.value("arithmetic")))
        guard inputs.count == interpreter.inputCount else {
            throw CLIError.usage(
                "the model has \(interpreter.inputCount) input(s); got \(inputs.count) --input file(s)")
        }
        for (index, input) in inputs.enumerated() {
            let data = try ModelLoading.read(context.absolute(input))
            if try interpreter.inputType(index) != .float32 {
                try interpreter.withInputBytes(index) { buffer in
                    guard data.count == buffer.count else {
                        throw CLIError.failed(
                            "input \(index) ('\(input)') has \(data.count) bytes; shape "
                                + "\(try interpreter.inputShape(index)) of \(try interpreter.inputType(index)) "
                                + "needs \(buffer.count)"
                        )
                    }
                    buffer.copyBytes(from: data)
                }
                continue
            }
            try interpreter.withInputBuffer(index) { buffer in
                guard data.count == buffer.count * 4 else {
                    throw CLIError.failed(
                        "input \(index) ('\(input)') has \(data.count) bytes; shape "
                            + "\(try interpreter.inputShape(index)) needs \(buffer.count * 4)"
                    )
                }
                data.withUnsafeBytes { raw in
                    for i in 0..<buffer.count {
                        buffer[i] = Float(
                            bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)))
                    }
                }
            }
        }
        try interpreter.invoke()
        let directory = context.absolute(outputDirectory)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failed("cannot create output directory '\(outputDirectory)': \(CLI.message(for: error))")
        }
        for index in 0..<interpreter.outputCount {
            var bytes = Data()
            let type = try interpreter.outputType(index)
            if type == .float32 {
                try interpreter.withOutputBuffer(index) { values in
                    bytes.reserveCapacity(values.count * 4)
                    for value in values {
                        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                    }
                }
            } else {
                try interpreter.withOutputBytes(index) { bytes.append(contentsOf: $0) }
            }
            let path = directory + "/output_\(index).\(ModelLoading.fileExtension(type))"
            guard FileManager.default.createFile(atPath: path, contents: bytes) else {
                throw CLIError.failed("cannot write '\(path)'")
            }
            let shape = try interpreter.outputShape(index).map(String.init).joined(separator: ", ")
            context.console.print("output_\(index) [\(shape)] \(try interpreter.outputName(index))")
        }
        return 0
    }
}

/// Shared steps of the model commands.
enum ModelLoading {
    /// Opens `path` (a .tflite or a .task with `member`) and prepares an interpreter.
    static func interpreter(
        path: String, member: String?, threads: Int?, instructionSet: String? = nil,
        arithmetic: QuantizedArithmetic = .xnnpack, tuning: EngineTuning = .standard
    ) throws -> Interpreter {
        let container = try ModelContainer(contentsOfFile: path)
        if container.kind == .bundle, member == nil {
            throw CLIError.usage(
                "the file is a .task bundle; choose a model with --member "
                    + "(\(container.modelNames.joined(separator: ", ")))"
            )
        }
        let model = try container.model(named: container.kind == .bundle ? member : nil)
        let options = InterpreterOptions()
        if let threads { options.threadCount = threads }
        options.quantizedArithmetic = arithmetic
        options.tuning = tuning
        if let instructionSet {
            guard let choice = InstructionSet(name: instructionSet), choice.isSupported else {
                let names = InstructionSet.all.filter(\.isSupported).map(\.description)
                throw CLIError.usage(
                    "unknown or unsupported instruction set '\(instructionSet)' (this CPU: "
                        + "\(names.joined(separator: ", ")))"
                )
            }
            options.instructionSet = choice
        }
        return try Interpreter(model: model, options: options)
    }

    /// The `--arithmetic` value (default xnnpack).
    static func arithmetic(_ value: String?) throws -> QuantizedArithmetic {
        switch value {
        case nil, "xnnpack": return .xnnpack
        case "reference": return .reference
        case let other?: throw CLIError.usage("--arithmetic must be xnnpack or reference, not '\(other)'")
        }
    }

    /// The file extension of raw tensors of `type`.
    static func fileExtension(_ type: TensorType) -> String {
        switch type {
        case .float32: return "f32"
        case .uint8: return "u8"
        case .int8: return "i8"
        case .int32: return "i32"
        default: return "bin"
        }
    }

    /// The bytes of the file at `path`.
    static func read(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.failed("cannot read '\(path)'")
        }
        return data
    }
}
