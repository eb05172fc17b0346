import Foundation
import Imaging
import ModelFile

/// The image segmenter's per-frame work (image_segmenter_graph.cc,
/// tensors_to_segmentation_calculator.cc; ../shared/spec/PIPELINES.md §9): the whole upright
/// image stretched to the model input with a replicated border, the model, then per channel a
/// confidence mask (the metadata's activation at the model's resolution, resized to the image as
/// OpenCV's linear resize does) and the category mask (interpolated at the image's size).
struct ImageSegmenterProcessor: FrameProcessor {
    let model: TaskModel
    let info: ImageSegmenterModelInfo
    let outputsConfidenceMasks: Bool
    let outputsCategoryMask: Bool
    /// The activated channel planes at the model's resolution, channel after channel.
    private var planes: [Float] = []
    private var resize = LinearMaskResize()
    private var categories = CategoryMaskBuilder()

    init(options: ImageSegmenterOptions) throws(TasksError) {
        let file = try TaskModel.model(options.baseOptions)
        model = try TaskModel(model: file, name: "image segmenter", threadCount: options.baseOptions.threadCount)
        var shapes: [[Int]] = []
        for index in 0..<model.outputCount { shapes.append(try model.outputShape(index)) }
        info = try ImageSegmenterModelInfo(
            model: file, metadata: model.metadata, outputShapes: shapes, locale: options.displayNamesLocale)
        outputsConfidenceMasks = options.shouldOutputConfidenceMasks
        outputsCategoryMask = options.shouldOutputCategoryMask
    }

    mutating func process(_ image: MPImage, timestampInMilliseconds: Int) throws(TasksError) -> ImageSegmenterResult {
        // keep_aspect_ratio = false, BORDER_REPLICATE, the orientation applied (§9.1).
        _ = try model.setInput(image, region: .fullImage, keepAspectRatio: false, border: .replicate)
        try model.invoke()
        // Masks take the size of the image as stored: MediaPipe does not undo the rotation (§9.6).
        let width = image.bitmap.width
        let height = image.bitmap.height
        // An untyped closure: TaskModel.withOutput passes a TasksError through unchanged.
        let outputs = try model.withOutput(info.maskOutput) { tensor in
            try masks(from: tensor, width: width, height: height)
        }
        let (confidenceMasks, categoryMask) = outputs
        var quality = [Float](repeating: 1, count: info.channels)
        if let output = info.qualityOutput {
            quality = try model.withOutput(output) { Array($0.prefix(info.channels)) }
        }
        return ImageSegmenterResult(
            confidenceMasks: confidenceMasks, categoryMask: categoryMask,
            qualityScores: quality.map { NSNumber(value: $0) }, timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The requested masks of the mask tensor at `width × height`.
    private mutating func masks(
        from tensor: UnsafeBufferPointer<Float>, width: Int, height: Int
    ) throws(TasksError) -> ([Mask]?, Mask?) {
        let info = info
        let threads = model.threads
        let pixels = info.width * info.height
        guard let values = tensor.baseAddress, tensor.count >= pixels * info.channels else {
            throw .internalError("image segmenter: the mask tensor holds \(tensor.count) values")
        }
        var confidenceMasks: [Mask]?
        if outputsConfidenceMasks {
            if planes.count < pixels * info.channels { planes = [Float](repeating: 0, count: pixels * info.channels) }
            var masks: [Mask] = []
            for channel in 0..<info.channels {
                let mask = planes.withUnsafeMutableBufferPointer { planes -> Mask? in
                    guard let base = planes.baseAddress else { return nil }
                    if channel == 0 {
                        ImageSegmenterProcessor.activate(
                            values, channels: info.channels, pixels: pixels, activation: info.activation, into: base)
                    }
                    let plane = UnsafePointer(base + channel * pixels)
                    return Mask(float32Width: width, height: height, zeroed: false) { target in
                        if width == info.width && height == info.height {
                            _ = target.initialize(from: UnsafeBufferPointer(start: plane, count: pixels))
                        } else {
                            resize.resize(
                                source: plane, stride: 1, sourceWidth: info.width, sourceHeight: info.height,
                                into: target, width: width, height: height, threads: threads)
                        }
                    }
                }
                guard let mask else { throw .internalError("confidence mask of \(width)×\(height)") }
                masks.append(mask)
            }
            confidenceMasks = masks
        }
        var categoryMask: Mask?
        if outputsCategoryMask {
            categoryMask = Mask(uInt8Width: width, height: height, zeroed: false) { target in
                categories.build(
                    values: values, sourceWidth: info.width, sourceHeight: info.height, channels: info.channels,
                    sigmoid: info.activation == .sigmoid, into: target, width: width, height: height,
                    threads: threads)
            }
            if categoryMask == nil { throw .internalError("category mask of \(width)×\(height)") }
        }
        return (confidenceMasks, categoryMask)
    }

    /// The confidences of each channel as planes: the values as they are (`NONE`), a sigmoid per
    /// value (in double, as upstream), or a softmax over each pixel's channels less their maximum.
    private static func activate(
        _ values: UnsafePointer<Float>, channels: Int, pixels: Int, activation: SegmenterMetadata.Activation,
        into planes: UnsafeMutablePointer<Float>
    ) {
        switch activation {
        case .none:
            for p in 0..<pixels {
                for c in 0..<channels { planes[c * pixels + p] = values[p * channels + c] }
            }
        case .sigmoid:
            for p in 0..<pixels {
                for c in 0..<channels {
                    planes[c * pixels + p] = Float(1 / (1 + exp(-Double(values[p * channels + c]))))
                }
            }
        case .softmax:
            for p in 0..<pixels {
                let pixel = values + p * channels
                var largest = pixel[0]
                for c in 1..<max(channels, 1) { largest = max(largest, pixel[c]) }
                var sum: Float = 0
                for c in 0..<channels {
                    let e = Float(exp(Double(pixel[c] - largest)))
                    planes[c * pixels + p] = e
                    sum += e
                }
                for c in 0..<channels { planes[c * pixels + p] /= sum }
            }
        }
    }
}
