import Imaging

/// How the stored pixels of an image must be turned to show it upright.
///
/// This is `Imaging.ImageOrientation`, re-exported so that `import VisionTasks` is enough to
/// use it (it is the type of `MPImage.orientation`).
public typealias ImageOrientation = Imaging.ImageOrientation
