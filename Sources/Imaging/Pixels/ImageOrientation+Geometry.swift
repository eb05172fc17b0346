extension ImageOrientation {
    /// Creates the orientation for an EXIF / TIFF `Orientation` tag value (1...8), or `nil`
    /// for any other value.
    ///
    /// The mapping is the one between `CGImagePropertyOrientation` and `UIImage.Orientation`:
    /// 1 up, 2 upMirrored, 3 down, 4 downMirrored, 5 leftMirrored, 6 right, 7 rightMirrored,
    /// 8 left.
    package init?(exifValue: Int) {
        switch exifValue {
        case 1: self = .up
        case 2: self = .upMirrored
        case 3: self = .down
        case 4: self = .downMirrored
        case 5: self = .leftMirrored
        case 6: self = .right
        case 7: self = .rightMirrored
        case 8: self = .left
        default: return nil
        }
    }

    /// The EXIF / TIFF `Orientation` tag value (1...8) of this orientation.
    package var exifValue: Int {
        switch self {
        case .up: return 1
        case .upMirrored: return 2
        case .down: return 3
        case .downMirrored: return 4
        case .leftMirrored: return 5
        case .right: return 6
        case .rightMirrored: return 7
        case .left: return 8
        }
    }

    /// Whether showing the image upright needs a mirror flip.
    package var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return true
        case .up, .down, .left, .right: return false
        }
    }

    /// Whether the upright image has the stored height as its width (a quarter turn).
    package var swapsWidthAndHeight: Bool {
        switch self {
        case .left, .right, .leftMirrored, .rightMirrored: return true
        case .up, .down, .upMirrored, .downMirrored: return false
        }
    }

    /// The rotation in radians that MediaPipe's iOS task runner puts into the region of
    /// interest for this orientation, or `nil` for the mirrored cases (which upstream rejects).
    ///
    /// Source: MP:mediapipe/tasks/ios/vision/core/sources/MPPVisionTaskRunner.mm
    /// (`normalizedRectWithRegionOfInterest`): up 0, right 3π/2, down π, left π/2.
    package var mediaPipeRotation: Float? {
        switch self {
        case .up: return 0
        case .right: return 3 * Float.pi / 2
        case .down: return Float.pi
        case .left: return Float.pi / 2
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return nil
        }
    }

    /// The size of the upright image for stored pixels of `width` × `height`.
    package func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsWidthAndHeight ? (height, width) : (width, height)
    }

    /// The stored pixel that shows at upright pixel (x, y), as an integer affine map:
    /// stored = origin + x · xStep + y · yStep, for stored pixels of `width` × `height`.
    ///
    /// The upright image is the stored one turned (and flipped) as the EXIF definitions
    /// describe: `.right` (EXIF 6) turns the stored pixels a quarter turn clockwise, `.left`
    /// (EXIF 8) counter-clockwise, `.leftMirrored` (EXIF 5) transposes them, and so on.
    package func storedPixelMap(width: Int, height: Int)
        -> (origin: (x: Int, y: Int), xStep: (x: Int, y: Int), yStep: (x: Int, y: Int))
    {
        let right = width - 1
        let bottom = height - 1
        switch self {
        case .up: return ((0, 0), (1, 0), (0, 1))
        case .upMirrored: return ((right, 0), (-1, 0), (0, 1))
        case .down: return ((right, bottom), (-1, 0), (0, -1))
        case .downMirrored: return ((0, bottom), (1, 0), (0, -1))
        case .leftMirrored: return ((0, 0), (0, 1), (1, 0))
        case .right: return ((0, bottom), (0, -1), (1, 0))
        case .rightMirrored: return ((right, bottom), (0, -1), (-1, 0))
        case .left: return ((right, 0), (0, 1), (-1, 0))
        }
    }

    /// Maps a point in normalized upright-image coordinates (0...1, origin top-left, edges at
    /// 0 and 1) to normalized stored-image coordinates.
    package func storedPoint(fromUpright x: Float, _ y: Float) -> (x: Float, y: Float) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (1 - x, y)
        case .down: return (1 - x, 1 - y)
        case .downMirrored: return (x, 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, 1 - x)
        case .rightMirrored: return (1 - y, 1 - x)
        case .left: return (1 - y, x)
        }
    }

    /// Maps a point in normalized stored-image coordinates to normalized upright-image
    /// coordinates; the inverse of ``storedPoint(fromUpright:_:)``.
    package func uprightPoint(fromStored x: Float, _ y: Float) -> (x: Float, y: Float) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (1 - x, y)
        case .down: return (1 - x, 1 - y)
        case .downMirrored: return (x, 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (1 - y, x)
        case .rightMirrored: return (1 - y, 1 - x)
        case .left: return (y, 1 - x)
        }
    }
}
