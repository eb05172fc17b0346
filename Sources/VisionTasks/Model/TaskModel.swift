import Imaging
import Inference
import ModelFile

/// One model of a task, ready to run on images: the interpreter, the input tensor's size and
/// value range (from the model's metadata, as MediaPipe reads it), and the image-to-tensor step.
///
/// Not thread-safe: a task's ``FrameProcessor`` owns its models and uses them one frame at a time.
package final class TaskModel {
    /// The processor every model runs on: this package's engine runs on the CPU only, so a task
    /// asked for ``Delegate/GPU`` runs here too.
    package static let engineDelegate = Delegate.CPU

    package let interpreter: Interpreter
    /// The input tensor's width and height in pixels.
    package let inputWidth: Int
    package let inputHeight: Int
    /// What an 8-bit pixel value becomes in the input tensor (unchanged bytes for 8-bit inputs).
    package let valueRange: ValueRange
    /// Whether the input tensor holds 8-bit values (quantized models) rather than float32.
    package let takesBytes: Bool
    /// The model's TFLite metadata, when it has any.
    package let metadata: ModelMetadata?

    /// Prepares `model` (named `name` in messages) to run with `threadCount` threads. The
    /// outputs at `unusedOutputs` (positions) are never read: what only they need is not run.
    ///
    /// - Throws: ``TasksError`` when the input is not a 1×H×W×3 float tensor, the metadata has no
    ///   usable normalization (MediaPipe: NotFound / InvalidArgument), or the engine cannot run it.
    package init(
        model: TFLiteModel, name: String, threadCount: Int?, normalization: NormalizationOptions? = nil,
        unusedOutputs: Set<Int> = []
    ) throws(TasksError) {
        do {
            metadata = try model.metadata()
            let options = InterpreterOptions()
            if let threadCount { options.threadCount = threadCount }
            options.unusedOutputs = unusedOutputs
            interpreter = try Interpreter(model: model, options: options)
            let shape = try interpreter.inputShape(0)
            guard shape.count == 4, shape[0] == 1, shape[3] == 3, shape[1] > 0, shape[2] > 0 else {
                throw TasksError.unsupportedModel("\(name): the input tensor must be 1×H×W×3, not \(shape)")
            }
            inputHeight = shape[1]
            inputWidth = shape[2]
        } catch {
            throw TasksError.wrapping(error)
        }
        // image_tensor_specs.cc: 8-bit inputs take the pixel values as they are; a float input
        // needs NormalizationOptions in the metadata (or, beyond upstream, from the caller).
        let inputType = model.mainSubgraph.tensors[Int(model.mainSubgraph.inputs[0])].type
        takesBytes = inputType == .uint8
        if takesBytes {
            valueRange = .bytes
            return
        }
        guard inputType == .float32 else {
            throw TasksError.unsupportedModel(
                "\(name): input tensor type \(inputType) is not supported (FLOAT32 or UINT8)")
        }
        guard let normalization = metadata?.inputTensors.first?.normalization ?? normalization else {
            throw TasksError.missingMetadata(
                "\(name): the float input tensor has no NormalizationOptions in its TFLite metadata")
        }
        do {
            valueRange = try ValueRange(normalizationMean: normalization.mean, std: normalization.std)
        } catch let error as ImageError {
            throw TasksError.invalidModel("\(name): \(error.description)")
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Opens the `.task` bundle at the options' model path.
    package static func bundle(_ baseOptions: BaseOptions) throws(TasksError) -> ModelAssetBundle {
        let path = try OptionValidation.modelPath(baseOptions)
        do {
            return try ModelAssetBundle(contentsOfFile: path)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Opens the single `.tflite` model at the options' model path (a model with its metadata
    /// and label files inside, as the object detector takes).
    package static func model(_ baseOptions: BaseOptions) throws(TasksError) -> TFLiteModel {
        let path = try OptionValidation.modelPath(baseOptions)
        do {
            return try TFLiteModel(contentsOfFile: path)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Parses bundle member `name`.
    package static func member(_ name: String, of bundle: ModelAssetBundle) throws(TasksError) -> TFLiteModel {
        do {
            return try bundle.model(named: name)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Fills the input tensor with `region` of `image` (upright coordinates) and returns the
    /// crop's geometry, which maps tensor coordinates back to the upright image.
    package func setInput(
        _ image: MPImage, region: NormalizedRect, keepAspectRatio: Bool, border: BorderMode
    ) throws(TasksError) -> CropGeometry {
        let options = TensorConversionOptions(
            width: inputWidth, height: inputHeight, keepAspectRatio: keepAspectRatio,
            borderMode: border, valueRange: valueRange)
        do {
            // The rows are filled on the interpreter's threads, as a kernel would be.
            let interpreter = interpreter
            if takesBytes {
                return try interpreter.withUInt8InputBuffer(0) { buffer in
                    try ImageToTensor.convert(
                        image.bitmap, orientation: image.orientation, region: region, options: options, into: buffer
                    ) { count, work, fill in interpreter.parallelFor(count, work: work, fill) }
                }
            }
            return try interpreter.withInputBuffer(0) { buffer in
                try ImageToTensor.convert(
                    image.bitmap, orientation: image.orientation, region: region, options: options, into: buffer
                ) { count, work, fill in interpreter.parallelFor(count, work: work, fill) }
            }
        } catch let error as ImageError {
            throw TasksError(error)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Runs the model on the current input.
    package func invoke() throws(TasksError) {
        do {
            try interpreter.invoke()
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// Reads output `index` without copying.
    package func withOutput<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) throws(TasksError) -> R {
        do {
            return try interpreter.withOutputBuffer(index, body)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// The shape of output `index`.
    package func outputShape(_ index: Int) throws(TasksError) -> [Int] {
        do {
            return try interpreter.outputShape(index)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// The interpreter's threads, for work that goes along with the model (such as warping its
    /// mask back onto the image): `body` runs once on each, with the thread's number.
    var threads: TaskThreads {
        let interpreter = interpreter
        return TaskThreads(count: interpreter.threadCount) { body in
            interpreter.forEachThread(body)
        }
    }

    /// The number of outputs.
    package var outputCount: Int { interpreter.outputCount }
}
