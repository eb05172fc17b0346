/// How ``ObjectDetector`` decodes a model whose two outputs are raw boxes and class scores per
/// anchor (no in-model non-max suppression) when the model carries no `DETECTOR_METADATA`.
///
/// MediaPipe reads these settings from the model's metadata (what MediaPipe Model Maker writes,
/// mediapipe/tasks/metadata/object_detector_metadata_schema.fbs) and rejects a model without
/// them. Setting ``ObjectDetectorOptions/rawOutputDecoding`` runs such a model anyway; a model
/// that has the metadata ignores this value. Boxes are read as y centre, x centre, height and
/// width relative to their anchor (MediaPipe's `YXHW` layout), keypoints as x, y pairs after
/// the box; the best class of each anchor is kept and non-max suppression follows, as in
/// MediaPipe's detection post-processing graph.
public struct RawOutputDecoding: Sendable, Equatable {
    /// An anchor box in normalized image coordinates.
    public struct Anchor: Sendable, Equatable {
        /// The horizontal centre, 0 at the left edge and 1 at the right.
        public var xCenter: Float
        /// The vertical centre, 0 at the top edge and 1 at the bottom.
        public var yCenter: Float
        /// The width as a fraction of the image width.
        public var width: Float
        /// The height as a fraction of the image height.
        public var height: Float

        /// Creates an anchor from its centre and size.
        public init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
            self.xCenter = xCenter
            self.yCenter = yCenter
            self.width = width
            self.height = height
        }
    }

    /// The settings of MediaPipe's SSD anchor generator (`SsdAnchorsCalculatorOptions`, the
    /// single-scale path of mediapipe/calculators/tflite/ssd_anchors_calculator.cc): one layer
    /// per stride, consecutive equal strides sharing a feature map.
    public struct AnchorGeneration: Sendable, Equatable {
        /// The model input's width in pixels.
        public var inputWidth: Int
        /// The model input's height in pixels.
        public var inputHeight: Int
        /// The anchor scale of the first layer.
        public var minScale: Float
        /// The anchor scale of the last layer.
        public var maxScale: Float
        /// One stride per layer; the feature map of a layer is the input size divided by it,
        /// rounded up.
        public var strides: [Int]
        /// The aspect ratios (width ÷ height) of the anchors at each position.
        public var aspectRatios: [Float]
        /// Where the anchor centre lies within its feature map cell, horizontally.
        public var anchorOffsetX: Float
        /// Where the anchor centre lies within its feature map cell, vertically.
        public var anchorOffsetY: Float
        /// The aspect ratio of one more anchor per position, at the geometric mean of this
        /// layer's and the next layer's scale; 0 or less adds none.
        public var interpolatedScaleAspectRatio: Float
        /// Whether the first layer has three anchors (scale 0.1 at ratio 1, then ratios 2 and
        /// 0.5 at its own scale) instead of one per aspect ratio.
        public var reduceBoxesInLowestLayer: Bool
        /// Whether every anchor has width and height 1 (the box sizes are then absolute).
        public var fixedAnchorSize: Bool

        /// Creates generator settings; the defaults are those of `SsdAnchorsCalculatorOptions`.
        public init(
            inputWidth: Int, inputHeight: Int, minScale: Float, maxScale: Float, strides: [Int],
            aspectRatios: [Float], anchorOffsetX: Float = 0.5, anchorOffsetY: Float = 0.5,
            interpolatedScaleAspectRatio: Float = 1, reduceBoxesInLowestLayer: Bool = false,
            fixedAnchorSize: Bool = false
        ) {
            self.inputWidth = inputWidth
            self.inputHeight = inputHeight
            self.minScale = minScale
            self.maxScale = maxScale
            self.strides = strides
            self.aspectRatios = aspectRatios
            self.anchorOffsetX = anchorOffsetX
            self.anchorOffsetY = anchorOffsetY
            self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
            self.reduceBoxesInLowestLayer = reduceBoxesInLowestLayer
            self.fixedAnchorSize = fixedAnchorSize
        }
    }

    /// Where the anchors come from.
    public enum Anchors: Sendable, Equatable {
        /// A list with one anchor per box, in the model's box order.
        case fixed([Anchor])
        /// Anchors generated like MediaPipe's SSD anchor generator.
        case generated(AnchorGeneration)
    }

    /// The anchors the boxes are relative to.
    public var anchors: Anchors
    /// Divides the raw x centre offset (and keypoint x) before it is scaled by the anchor width.
    public var xScale: Float
    /// Divides the raw y centre offset (and keypoint y) before it is scaled by the anchor height.
    public var yScale: Float
    /// Divides the raw width before it is scaled by the anchor width.
    public var wScale: Float
    /// Divides the raw height before it is scaled by the anchor height.
    public var hScale: Float
    /// Whether width and height are `exp(raw ÷ scale)` times the anchor's (SSD box coding)
    /// rather than `raw ÷ scale` times it.
    public var applyExponentialOnBoxSize: Bool
    /// Whether the raw scores are logits that need a sigmoid.
    public var sigmoidScore: Bool
    /// Keypoints per box, each an x, y pair following the four box values.
    public var numKeypoints: Int

    /// Creates decoding settings. The defaults fit an SSD whose scores already went through
    /// a sigmoid in the model: exponential box sizes, no score activation, no keypoints.
    public init(
        anchors: Anchors, xScale: Float, yScale: Float, wScale: Float, hScale: Float,
        applyExponentialOnBoxSize: Bool = true, sigmoidScore: Bool = false, numKeypoints: Int = 0
    ) {
        self.anchors = anchors
        self.xScale = xScale
        self.yScale = yScale
        self.wScale = wScale
        self.hScale = hScale
        self.applyExponentialOnBoxSize = applyExponentialOnBoxSize
        self.sigmoidScore = sigmoidScore
        self.numKeypoints = numKeypoints
    }
}

extension RawOutputDecoding.AnchorGeneration {
    /// The generator's internal settings, after checking these.
    func generatorOptions() throws(TasksError) -> SSDAnchorOptions {
        let sizes = [minScale, maxScale] + aspectRatios
        guard inputWidth > 0, inputHeight > 0, !strides.isEmpty, strides.allSatisfy({ $0 > 0 }),
            !aspectRatios.isEmpty, sizes.allSatisfy({ $0.isFinite && $0 > 0 }),
            anchorOffsetX.isFinite, anchorOffsetY.isFinite, interpolatedScaleAspectRatio.isFinite
        else {
            throw .invalidOption(
                option: "rawOutputDecoding",
                message:
                    "The anchor generation needs a positive input size, at least one positive stride and aspect "
                    + "ratio, and positive finite scales.")
        }
        return SSDAnchorOptions(
            inputWidth: inputWidth, inputHeight: inputHeight, minScale: minScale, maxScale: maxScale,
            numLayers: strides.count, strides: strides, aspectRatios: aspectRatios, anchorOffsetX: anchorOffsetX,
            anchorOffsetY: anchorOffsetY, interpolatedScaleAspectRatio: interpolatedScaleAspectRatio,
            reduceBoxesInLowestLayer: reduceBoxesInLowestLayer, fixedAnchorSize: fixedAnchorSize)
    }
}
