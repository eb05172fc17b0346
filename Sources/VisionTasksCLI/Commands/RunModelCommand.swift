import Foundation
import Inference
import ModelFile

/// `vision-tasks run-model MODEL [--member NAME] --input FILE... --output-dir DIR [--threads N]`:
/// runs one model with the engine on raw float32 tensors.
///
/// Each input file holds one model input as little-endian float32 in the tensor's NHWC order,
/// in model input order; each output is written the same way to `DIR/output_<i>.f32`, and
/// its shape is printed.
package enum RunModelCommand: Command {
    package static let name = "run-model"
    package static let summary = "run a .tflite model (or a .task member) on raw float32 input files"
    package static let usage = "vision-tasks run-model MODEL [--member NAME] --input FILE... --output-dir DIR [--threads N]"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: [], options: ["member", "input", "output-dir", "threads"])
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            throw CLIError.usage("run-model takes exactly one MODEL")
        }
        guard let outputDirectory = parsed.value("output-dir") else { throw CLIError.usage("--output-dir is required") }
        let inputs = parsed.values("input")
        let interpreter = try ModelLoading.interpreter(
            path: context.absolute(file), member: parsed.value("member"),
            threads: try parsed.integer("threads", in: 1...256))
        guard inputs.count == interpreter.inputCount else {
            throw CLIError.usage("the model has \(interpreter.inputCount) input(s); got \(inputs.count) --input file(s)")
        }
        for (index, input) in inputs.enumerated() {
            let data = try ModelLoading.read(context.absolute(input))
            try interpreter.withInputBuffer(index) { buffer in
                guard data.count == buffer.count * 4 else {
                    throw CLIError.failed(
                        "input \(index) ('\(input)') has \(data.count) bytes; shape \(try interpreter.inputShape(index)) needs \(buffer.count * 4)")
                }
                data.withUnsafeBytes { raw in
                    for i in 0..<buffer.count {
                        buffer[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)))
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
            try interpreter.withOutputBuffer(index) { values in
                bytes.reserveCapacity(values.count * 4)
                for value in values {
                    withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                }
            }
            let path = directory + "/output_\(index).f32"
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
    static func interpreter(path: String, member: String?, threads: Int?, instructionSet: String? = nil) throws -> Interpreter {
        let container = try ModelContainer(contentsOfFile: path)
        if container.kind == .bundle, member == nil {
            throw CLIError.usage("the file is a .task bundle; choose a model with --member (\(container.modelNames.joined(separator: ", ")))")
        }
        let model = try container.model(named: container.kind == .bundle ? member : nil)
        let options = InterpreterOptions()
        if let threads { options.threadCount = threads }
        if let instructionSet {
            guard let choice = InstructionSet(name: instructionSet), choice.isSupported else {
                let names = InstructionSet.all.filter(\.isSupported).map(\.description)
                throw CLIError.usage("unknown or unsupported instruction set '\(instructionSet)' (this CPU: \(names.joined(separator: ", ")))")
            }
            options.instructionSet = choice
        }
        return try Interpreter(model: model, options: options)
    }

    /// The bytes of the file at `path`.
    static func read(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.failed("cannot read '\(path)'")
        }
        return data
    }
}
