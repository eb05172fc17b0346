/// How the stored pixels of an image must be turned to show it upright; the eight cases of
/// `UIImage.Orientation`, in the same order and with the same raw values.
///
/// `up` means the pixels are already upright. Unlike MediaPipe's iOS SDK, the mirrored cases are
/// supported (front cameras produce them).
public enum ImageOrientation: Int, Sendable, CaseIterable {
    case up = 0
    case down = 1
    case left = 2
    case right = 3
    case upMirrored = 4
    case downMirrored = 5
    case leftMirrored = 6
    case rightMirrored = 7
}
