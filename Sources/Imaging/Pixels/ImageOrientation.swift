/// How the stored pixels of an image must be turned to show it upright; the eight cases of
/// `UIImage.Orientation`, in the same order and with the same raw values.
///
/// `up` means the pixels are already upright. Unlike MediaPipe's iOS SDK, the mirrored cases are
/// supported (front cameras produce them).
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Shown as stored (EXIF orientation 1).
    case up = 0
    /// Turned half a turn (EXIF orientation 3).
    case down = 1
    /// Turned a quarter turn counter-clockwise (EXIF orientation 8).
    case left = 2
    /// Turned a quarter turn clockwise (EXIF orientation 6).
    case right = 3
    /// Flipped left to right (EXIF orientation 2).
    case upMirrored = 4
    /// Flipped top to bottom (EXIF orientation 4).
    case downMirrored = 5
    /// Transposed: the stored top row becomes the left column, read top to bottom (EXIF orientation 5).
    case leftMirrored = 6
    /// Transposed the other way: the stored top row becomes the right column, read bottom to top (EXIF 7).
    case rightMirrored = 7
}
