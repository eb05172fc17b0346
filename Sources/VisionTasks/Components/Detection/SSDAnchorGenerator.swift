import Foundation

/// Generates SSD anchors like MediaPipe's `SsdAnchorsCalculator` (non-multiscale path;
/// mediapipe/calculators/tflite/ssd_anchors_calculator.cc, ../shared/spec/PIPELINES.md §1.8).
enum SSDAnchorGenerator {
    /// The anchors for `options`, grouped by runs of equal strides; within a group ordered by
    /// row, column, then anchor spec.
    static func anchors(for options: SSDAnchorOptions) throws(TasksError) -> [Anchor] {
        let layerCount = options.numLayers
        let usesFeatureMaps = !options.featureMapHeights.isEmpty
        if usesFeatureMaps {
            guard options.featureMapHeights.count == layerCount, options.featureMapWidths.count == layerCount else {
                throw .internalError("SSD anchors: need \(layerCount) feature map sizes")
            }
        } else {
            guard options.strides.count == layerCount, options.strides.allSatisfy({ $0 > 0 }) else {
                throw .internalError("SSD anchors: need \(layerCount) positive strides")
            }
        }
        var anchors: [Anchor] = []
        var layer = 0
        while layer < layerCount {
            var aspectRatios: [Float] = []
            var scales: [Float] = []
            // Consecutive layers with the same stride share one feature map.
            var last = layer
            while last < options.strides.count, options.strides[last] == options.strides[layer] {
                let scale = Self.scale(options, layer: last)
                if last == 0, options.reduceBoxesInLowestLayer {
                    aspectRatios += [1.0, 2.0, 0.5]
                    scales += [0.1, scale, scale]
                } else {
                    for ratio in options.aspectRatios {
                        aspectRatios.append(ratio)
                        scales.append(scale)
                    }
                    if options.interpolatedScaleAspectRatio > 0 {
                        let next: Float = last == options.strides.count - 1 ? 1 : Self.scale(options, layer: last + 1)
                        scales.append((scale * next).squareRoot())
                        aspectRatios.append(options.interpolatedScaleAspectRatio)
                    }
                }
                last += 1
            }
            if last == layer {
                // Only reachable with explicit feature maps and fewer strides than layers.
                last = layer + 1
            }
            var widths: [Float] = []
            var heights: [Float] = []
            for (ratio, scale) in zip(aspectRatios, scales) {
                let root = ratio.squareRoot()
                heights.append(scale / root)
                widths.append(scale * root)
            }
            let mapHeight: Int
            let mapWidth: Int
            if usesFeatureMaps {
                mapHeight = options.featureMapHeights[layer]
                mapWidth = options.featureMapWidths[layer]
            } else {
                let stride = Float(options.strides[layer])
                mapHeight = Int((Float(options.inputHeight) / stride).rounded(.up))
                mapWidth = Int((Float(options.inputWidth) / stride).rounded(.up))
            }
            anchors.reserveCapacity(anchors.count + mapHeight * mapWidth * widths.count)
            for y in 0..<max(mapHeight, 0) {
                for x in 0..<max(mapWidth, 0) {
                    for index in widths.indices {
                        let xCenter = (Float(x) + options.anchorOffsetX) / Float(mapWidth)
                        let yCenter = (Float(y) + options.anchorOffsetY) / Float(mapHeight)
                        anchors.append(
                            Anchor(
                                xCenter: xCenter, yCenter: yCenter,
                                width: options.fixedAnchorSize ? 1 : widths[index],
                                height: options.fixedAnchorSize ? 1 : heights[index]))
                    }
                }
            }
            layer = last
        }
        return anchors
    }

    /// min + (max − min)·k/(S − 1), in double as upstream; the mean of min and max when there
    /// is one stride.
    private static func scale(_ options: SSDAnchorOptions, layer: Int) -> Float {
        let count = options.strides.count
        if count == 1 { return (options.minScale + options.maxScale) * 0.5 }
        return Float(
            Double(options.minScale)
                + Double(options.maxScale - options.minScale) * Double(layer) / (Double(count) - 1))
    }
}
