import Imaging

/// The two ways the landmarkers merge tracked rects with fresh detector rects
/// (../shared/spec/PIPELINES.md §2.3, §3.3). Overlap is the IoU of the axis-aligned boxes from centre and size;
/// rotation is ignored (mediapipe/util/rectangle_util.cc).
enum RectAssociation {
    /// MediaPipe's `AssociationNormRectCalculator` (pose): streams are given in increasing
    /// priority. The first non-empty stream seeds the list (its elements de-duplicating each
    /// other); then every element of the later streams, in order, removes each listed rect it
    /// overlaps with IoU above `threshold` and is appended
    /// (mediapipe/calculators/util/association_calculator.h).
    ///
    /// So a detector rect (second stream) replaces the tracked rects (first stream) it overlaps.
    static func replacingOverlaps(_ streams: [[NormalizedRect]], threshold: Float) -> [NormalizedRect] {
        var result: [NormalizedRect] = []
        for stream in streams {
            for rect in stream {
                let box = Self.box(of: rect)
                result.removeAll { Self.box(of: $0).intersectionOverUnion(with: box) > threshold }
                result.append(rect)
            }
        }
        return result
    }

    /// MediaPipe's `HandAssociationCalculator` (hands): all tracked rects are kept in order;
    /// each detector rect is appended only if its IoU with every rect already in the result is
    /// at most `threshold` (mediapipe/tasks/cc/vision/hand_landmarker/calculators/hand_association_calculator.cc).
    ///
    /// So tracked rects win over detector rects, the opposite of ``replacingOverlaps(_:threshold:)``.
    static func keepingTracked(
        _ tracked: [NormalizedRect], detected: [NormalizedRect], threshold: Float
    ) -> [NormalizedRect] {
        var result = tracked
        for rect in detected {
            let box = Self.box(of: rect)
            if !result.contains(where: { Self.box(of: $0).intersectionOverUnion(with: box) > threshold }) {
                result.append(rect)
            }
        }
        return result
    }

    /// The axis-aligned box of a rect (mediapipe/util/rectangle_util.cc `ToRectangle`).
    /// Upstream fails on a negative size; such a box has IoU 0 with everything here.
    static func box(of rect: NormalizedRect) -> RelativeBox {
        RelativeBox(
            xMin: rect.xCenter - rect.width / 2, yMin: rect.yCenter - rect.height / 2,
            width: rect.width, height: rect.height)
    }
}
